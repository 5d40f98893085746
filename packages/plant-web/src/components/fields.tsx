import { useT } from '../i18n.js';
import {
  type FieldGroup,
  type FieldSpec,
  LOCALIZED,
  label,
  localized,
  referenceUrl,
  valueLabel,
} from '../labels.js';
import { safeHref } from '../safe-href.js';
import { YearBar } from './year-bar.js';

/** A month's name in the page's language (1 is January). */
const monthName = (month: number, lang: string) =>
  new Date(Date.UTC(2000, month - 1, 1)).toLocaleString(lang, { month: 'long', timeZone: 'UTC' });

/** Whether a record has a value for the field (texts in either language count). */
function filled(record: Record<string, unknown>, field: FieldSpec): boolean {
  if (LOCALIZED.includes(field.key)) return localized(record, field.key, 'en') !== null;
  const value = record[field.key];
  if (value === null || value === undefined || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}

function Value({ record, field }: { record: Record<string, unknown>; field: FieldSpec }) {
  const { t, lang } = useT();
  if (LOCALIZED.includes(field.key)) return <span>{localized(record, field.key, lang)}</span>;
  const value = record[field.key];
  if (value === null || value === undefined) return <span class="unknown">{t('unknown')}</span>;
  switch (field.kind) {
    case 'bool':
      return <>{value ? t('yes') : t('no')}</>;
    case 'enum':
      return <>{valueLabel(String(value), lang)}</>;
    case 'number':
      return <>{`${Number(value).toLocaleString(lang)}${field.unit ? ` ${field.unit}` : ''}`}</>;
    case 'enumList':
      return <>{(value as string[]).map((item) => valueLabel(item, lang)).join(', ')}</>;
    case 'monthList':
      return <>{(value as number[]).map((month) => monthName(month, lang)).join(', ')}</>;
    case 'list':
      return (
        <ul class="inline-list">
          {(value as string[]).map((item) => (
            <li key={item}>{safeHref(item) ? <a href={safeHref(item)}>{item}</a> : item}</li>
          ))}
        </ul>
      );
    case 'link': {
      const url = referenceUrl(field.key, String(value));
      return url ? <a href={url}>{String(value)}</a> : <span>{String(value)}</span>;
    }
    default:
      return <>{String(value)}</>;
  }
}

/**
 * The groups of a record's fields: every filled field with its plain label. A yes/no field that
 * is not known is listed as unknown (never as "no"); other unknown fields are left out.
 */
export function FieldGroups({ record, groups }: { record: Record<string, unknown>; groups: FieldGroup[] }) {
  const { lang } = useT();
  return (
    <>
      {groups.map((group) => {
        const shown = group.fields.filter(
          (field) => field.kind !== 'months' && (filled(record, field) || field.kind === 'bool'),
        );
        const months = group.fields.some((field) => field.kind === 'months');
        if (shown.length === 0 && !months) return null;
        return (
          <section class="field-group" key={group.title[1]} aria-labelledby={`group-${group.title[1]}`}>
            <h2 id={`group-${group.title[1]}`}>{label(group.title, lang)}</h2>
            {months ? <YearBar cultivar={record} /> : null}
            <dl>
              {shown.map((field) => (
                <div class="field" key={field.key} data-field={field.key}>
                  <dt>{label(field.label, lang)}</dt>
                  <dd>
                    <Value record={record} field={field} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        );
      })}
    </>
  );
}
