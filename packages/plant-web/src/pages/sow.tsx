import { useState } from 'preact/hooks';
import { withQuery } from '../api.js';
import { Loading, useTitle } from '../components/common.js';
import { MONTHS, useT } from '../i18n.js';
import { ACTIVITIES, valueLabel } from '../labels.js';
import { useApi } from '../use-api.js';

interface CalendarEntry {
  id: string;
  slug: string;
  name: string;
  species_slug: string;
  species_name_scientific: string;
}
interface Calendar {
  activities: Record<string, { cultivars: CalendarEntry[]; has_more: boolean }>;
}

/** What to sow, plant out and harvest in a month (this month unless chosen). */
export function SowPage() {
  const { t, lang } = useT();
  useTitle(t('sow'));
  const [month, setMonth] = useState(new Date().getMonth() + 1);
  const calendar = useApi<Calendar>(withQuery('/api/v1/calendar', { month, per_page: 100 }));
  return (
    <>
      <h1>{t('sowNow')}</h1>
      <div class="filter">
        <label for="sow-month">{t('month')}</label>
        <select
          id="sow-month"
          value={String(month)}
          onChange={(e) => setMonth(Number(e.currentTarget.value))}
        >
          {MONTHS[lang].map((m, i) => (
            <option key={m} value={String(i + 1)}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <Loading {...calendar}>
        {(c) => (
          <div class="activities">
            {ACTIVITIES.filter((a) => c.activities[a]).map((activity) => {
              const group = c.activities[activity];
              return (
                <section key={activity} aria-labelledby={`act-${activity}`}>
                  <h2 id={`act-${activity}`}>
                    {valueLabel(activity, lang)} ({group?.cultivars.length ?? 0})
                  </h2>
                  {group && group.cultivars.length > 0 ? (
                    <ul class="columns">
                      {group.cultivars.map((entry) => (
                        <li key={entry.id}>
                          <a href={`/cultivars/${entry.slug}`}>{entry.name}</a>{' '}
                          <i class="sub">{entry.species_name_scientific}</i>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p>{t('none')}</p>
                  )}
                  {group?.has_more ? <p>{t('hasMore')}</p> : null}
                </section>
              );
            })}
          </div>
        )}
      </Loading>
    </>
  );
}
