import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { type StringKey, useT } from '../i18n.js';
import { type FieldSpec, label, valueLabel } from '../labels.js';

type Draft = Record<string, string>;

/** The text an input shows for a record's value. */
function toText(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'list') return (value as string[]).join('\n');
  if (field.kind === 'months') return (value as number[]).join(', ');
  return String(value);
}

/** The payload value for an input's text: empty clears the field (null). */
function fromText(field: FieldSpec, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  switch (field.kind) {
    case 'number':
      return Number(trimmed.replace(',', '.'));
    case 'bool':
      return trimmed === 'true';
    case 'list':
      return trimmed
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    case 'months':
      return trimmed
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map(Number);
    default:
      return trimmed;
  }
}

/** The field a 400 names (`other_names.2` belongs to `other_names`). */
const namedField = (error: ApiError) => error.field?.split('.')[0];

/**
 * An edit form over some of a record's fields. Only changed fields are sent (when creating,
 * every filled one, prefilled or typed); the API's 400 message is shown beside the field it
 * names (other errors above the buttons).
 */
export function EditForm(props: {
  id: string;
  fields: FieldSpec[];
  record: Record<string, unknown>;
  submitLabel?: StringKey;
  /** A form that creates a record: `record` holds prefilled values, which are sent too. */
  creating?: boolean;
  /** How an `enum` field's option reads; by default its plain-word label. */
  valueText?(value: string): string | undefined;
  /** Sends the payload (and, editing, the reason the editor gave); resolves when stored. */
  onSubmit(payload: Record<string, unknown>, reason?: string): Promise<unknown>;
  onDone?(): void;
  onCancel?(): void;
}) {
  const { t, lang } = useT();
  const initial = Object.fromEntries(props.fields.map((f) => [f.key, toText(f, props.record[f.key])]));
  const [draft, setDraft] = useState<Draft>(initial);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const payload: Record<string, unknown> = {};
    for (const field of props.fields) {
      const text = draft[field.key] ?? '';
      const send = props.creating ? text.trim() !== '' : text !== initial[field.key];
      if (send) payload[field.key] = fromText(field, text);
    }
    setBusy(true);
    setError(undefined);
    setDone(false);
    try {
      await props.onSubmit(payload, props.creating ? undefined : reason);
      setDone(true);
      props.onDone?.();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
    } finally {
      setBusy(false);
    }
  };

  const errorField = error ? namedField(error) : undefined;
  const fieldKnown = props.fields.some((f) => f.key === errorField);
  return (
    <form class="edit-form" onSubmit={submit} noValidate>
      {props.fields.map((field) => {
        const id = `${props.id}-${field.key}`;
        const wrong = error && errorField === field.key;
        const common = {
          id,
          name: field.key,
          'aria-invalid': wrong ? true : undefined,
          'aria-describedby': wrong ? `${id}-error` : undefined,
          value: draft[field.key] ?? '',
          onInput: (e: Event) =>
            setDraft({ ...draft, [field.key]: (e.currentTarget as HTMLInputElement).value }),
        };
        let input: JSX.Element;
        if (field.kind === 'bool' || field.kind === 'enum') {
          const values = field.kind === 'bool' ? ['true', 'false'] : (field.values ?? []);
          input = (
            <select {...common} onChange={common.onInput}>
              {field.required && draft[field.key] ? null : (
                <option value="">{field.required ? t('choose') : t('unknown')}</option>
              )}
              {values.map((v) => (
                <option key={v} value={v}>
                  {field.kind === 'bool'
                    ? v === 'true'
                      ? t('yes')
                      : t('no')
                    : (props.valueText?.(v) ?? valueLabel(v, lang))}
                </option>
              ))}
            </select>
          );
        } else if (field.kind === 'long' || field.kind === 'list') {
          input = <textarea {...common} rows={field.kind === 'long' ? 4 : 3} />;
        } else {
          input = (
            <input {...common} type="text" inputMode={field.kind === 'number' ? 'decimal' : undefined} />
          );
        }
        return (
          <div class={`form-field${wrong ? ' invalid' : ''}`} key={field.key}>
            <label for={id}>{label(field.label, lang)}</label>
            {input}
            {wrong ? (
              <p class="field-error" id={`${id}-error`} role="alert">
                {error.message}
              </p>
            ) : null}
          </div>
        );
      })}
      {props.creating ? null : (
        <div class="form-field">
          <label for={`${props.id}-reason`}>{t('changeReason')}</label>
          <input
            id={`${props.id}-reason`}
            type="text"
            maxLength={500}
            value={reason}
            onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)}
          />
        </div>
      )}
      {error && !fieldKnown ? (
        <p class="field-error" role="alert">
          {error.message}
        </p>
      ) : null}
      {done ? (
        <p class="ok" role="status">
          {t('saved')}
        </p>
      ) : null}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {t(props.submitLabel ?? 'save')}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
