import { api, type Companion, type Species } from '../api.js';
import { DeleteButton } from '../edit/delete-button.js';
import { EditForm } from '../edit/edit-form.js';
import { useT } from '../i18n.js';
import { EVIDENCE, type FieldSpec, RELATIONSHIPS, valueLabel } from '../labels.js';
import { safeHref } from '../safe-href.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';

const NEW_COMPANION: FieldSpec[] = [
  {
    key: 'other',
    label: ['Andere Art (Kürzel, z. B. tagetes-patula)', 'Other species (slug, e.g. tagetes-patula)'],
    kind: 'text',
  },
  { key: 'relationship', label: ['Beziehung', 'Relationship'], kind: 'enum', values: RELATIONSHIPS },
  { key: 'evidence', label: ['Beleg', 'Evidence'], kind: 'enum', values: EVIDENCE },
  { key: 'mechanism', label: ['Wirkung', 'Mechanism'], kind: 'long' },
  { key: 'source_url', label: ['Quelle (URL)', 'Source (URL)'], kind: 'text' },
];

/** A species' neighbours, good and bad, each with its mechanism and evidence. */
export function Companions({ species }: { species: Species }) {
  const { t, lang } = useT();
  const canWrite = useCanWrite();
  const companions = useApi<Companion[]>(`/api/v1/companions?species=${species.slug}`);
  const all = companions.data ?? [];

  const other = (c: Companion) =>
    c.species_a_id === species.id
      ? { slug: c.species_b_slug, scientific: c.species_b_scientific, de: c.species_b_de }
      : { slug: c.species_a_slug, scientific: c.species_a_scientific, de: c.species_a_de };

  const list = (kind: 'beneficial' | 'antagonistic', title: 'goodNeighbours' | 'badNeighbours') => {
    const items = all.filter((c) => c.relationship === kind);
    return (
      <section class={`companions ${kind}`} aria-labelledby={`companions-${kind}`}>
        <h3 id={`companions-${kind}`}>{t(title)}</h3>
        {items.length === 0 ? (
          <p>{t('none')}</p>
        ) : (
          <ul>
            {items.map((c) => {
              const o = other(c);
              return (
                <li key={c.id}>
                  <a href={`/species/${o.slug}`}>
                    {lang === 'de' && o.de ? `${o.de} ` : ''}
                    <i>{o.scientific}</i>
                  </a>
                  <p class="mechanism">
                    <span class="label">{t('mechanism')}:</span>{' '}
                    {c.mechanism ?? <span class="unknown">{t('unknown')}</span>}
                  </p>
                  <p class="evidence">
                    <span class="label">{t('evidence')}:</span>{' '}
                    {c.evidence ? valueLabel(c.evidence, lang) : <span class="unknown">{t('unknown')}</span>}
                    {safeHref(c.source_url) ? (
                      <>
                        {' · '}
                        <a href={safeHref(c.source_url)}>{t('source')}</a>
                      </>
                    ) : null}
                  </p>
                  <DeleteButton
                    writers
                    path={`/api/v1/companions/${c.id}`}
                    what={o.scientific}
                    onDeleted={companions.reload}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </section>
    );
  };

  return (
    <section aria-labelledby="companions-title" class="companion-lists">
      <h2 id="companions-title">{t('companions')}</h2>
      <div class="two-columns">
        {list('beneficial', 'goodNeighbours')}
        {list('antagonistic', 'badNeighbours')}
      </div>
      {canWrite ? (
        <details class="editor">
          <summary>{t('addCompanion')}</summary>
          <EditForm
            id="companion-new"
            fields={NEW_COMPANION}
            record={{ relationship: 'beneficial' }}
            submitLabel="add"
            onSubmit={async ({ other: ref, ...rest }) => {
              const partner = await api.get<Species>(
                `/api/v1/species/${encodeURIComponent(String(ref ?? ''))}`,
              );
              return api.post('/api/v1/companions', {
                relationship: 'beneficial',
                ...rest,
                species_a_id: species.id,
                species_b_id: partner.id,
              });
            }}
            onDone={companions.reload}
          />
        </details>
      ) : null}
    </section>
  );
}
