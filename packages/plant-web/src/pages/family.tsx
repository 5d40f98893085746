import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Family, type Member, type Page } from '../api.js';
import { commonName, Loading, SpeciesCard, useTitle } from '../components/common.js';
import { Gallery } from '../components/gallery.js';
import { History } from '../components/history.js';
import { DeleteButton } from '../edit/delete-button.js';
import { EditForm } from '../edit/edit-form.js';
import { useT } from '../i18n.js';
import { FAMILY_FIELDS } from '../labels.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';

export function FamilyPage() {
  const { params } = useRoute();
  const family = useApi<Family>(`/api/v1/families/${encodeURIComponent(params.slug ?? '')}`);
  return <Loading {...family}>{(f) => <FamilyView family={f} reload={family.reload} />}</Loading>;
}

function FamilyView({ family, reload }: { family: Family; reload(): void }) {
  const { t, lang } = useT();
  const { route } = useLocation();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState(false);
  const members = useApi<Page<Member>>(`/api/v1/species?family=${family.slug}&per_page=100`);
  const name = commonName(family, lang);
  useTitle(name ?? family.name_scientific);
  return (
    <article class="record">
      <p class="kind">{t('family')}</p>
      <h1>
        {name ? `${name} ` : ''}
        <i class="scientific">{family.name_scientific}</i>
      </h1>
      {canWrite ? (
        <div class="edit-controls">
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {t('edit')}
          </button>
          <DeleteButton
            path={`/api/v1/families/${family.id}`}
            what={family.name_scientific}
            onDeleted={() => route('/browse')}
          />
          <a href={`/new/species?family=${family.slug}`}>{t('newSpeciesHere')}</a>
        </div>
      ) : null}
      {editing ? (
        <EditForm
          id="family-edit"
          fields={FAMILY_FIELDS}
          record={family}
          onSubmit={(payload, reason) => api.put(`/api/v1/families/${family.id}`, payload, reason)}
          onDone={() => {
            setEditing(false);
            reload();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      {family.description ? <p class="description">{family.description}</p> : null}
      <section aria-labelledby="members-title">
        <h2 id="members-title">
          {t('speciesPlural')} {members.data ? `(${members.data.total})` : ''}
        </h2>
        <ul class="cards">
          {(members.data?.data ?? []).map((s) => (
            <SpeciesCard key={s.id} member={s} />
          ))}
        </ul>
      </section>
      <Gallery entityType="family" entityId={family.id} name={name ?? family.name_scientific} />
      <History kind="families" id={family.id} version={String(family.updated_at)} onReverted={reload} />
    </article>
  );
}
