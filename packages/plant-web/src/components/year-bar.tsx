import { MONTHS, useT } from '../i18n.js';
import { ACTIVITIES, valueLabel } from '../labels.js';

/** The months of each activity of a cultivar, drawn as one row of twelve cells per activity. */
export function YearBar({ cultivar }: { cultivar: Record<string, unknown> }) {
  const { t, lang } = useT();
  const rows = ACTIVITIES.map((activity) => ({
    activity,
    months: (cultivar[`${activity}_months`] as number[] | null) ?? null,
  })).filter((row) => row.months && row.months.length > 0);
  if (rows.length === 0) return null;
  return (
    <table class="year-bar">
      <caption class="visually-hidden">{t('yearBar')}</caption>
      <thead>
        <tr>
          <td />
          {MONTHS[lang].map((m) => (
            <th scope="col" key={m}>
              {m}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ activity, months }) => (
          <tr key={activity}>
            <th scope="row">{valueLabel(activity, lang)}</th>
            {MONTHS[lang].map((m, i) => {
              const on = months?.includes(i + 1) ?? false;
              return (
                <td key={m} class={on ? `on ${activity}` : undefined}>
                  <span class="visually-hidden">{on ? `${m} ✓` : ''}</span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
