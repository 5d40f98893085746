import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Family, type Species } from '../api.js';
import { commonName, Loading, useTitle } from '../components/common.js';
import { Companions } from '../components/companions.js';
import { CultivarList } from '../components/cultivar-list.js';
import { FieldGroups } from '../components/fields.js';
import { Gallery } from '../components/gallery.js';
import { History } from '../components/history.js';
import { Picture } from '../components/picture.js';
import { EdibleParts, Warnings } from '../components/warnings.js';
import { DeleteButton } from '../edit/delete-button.js';
import { EditForm } from '../edit/edit-form.js';
import { useT } from '../i18n.js';
import { editableFields, SPECIES_GROUPS } from '../labels.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';

const EDITABLE = editableFields(SPECIES_GROUPS);

export function SpeciesPage() {
  const { params } = useRoute();
  const species = useApi<Species>(`/api/v1/species/${encodeURIComponent(params.slug ?? '')}`);
  return <Loading {...species}>{(s) => <SpeciesView species={s} reload={species.reload} />}</Loading>;
}

function SpeciesView({ species, reload }: { species: Species; reload(): void }) {
  const { t, lang } = useT();
  const { route } = useLocation();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState(false);
  const family = useApi<Family>(`/api/v1/families/${species.family_id}`);
  const name = commonName(species, lang);
  useTitle(name ?? species.name_scientific);
  const otherName = lang === 'de' ? species.name_en : species.name_de;

  return (
    <article class="record">
      <header class="record-header">
        {species.primary_image_key ? (
          <Picture
            imageKey={species.primary_image_key}
            alt={name ?? species.name_scientific}
            sizes="(max-width: 600px) 100vw, 320px"
            width={640}
            class="hero"
          />
        ) : null}
        <div>
          <p class="kind">{t('species')}</p>
          <h1>
            {name ? (
              <>
                <span data-name>{name}</span> <i class="scientific">{species.name_scientific}</i>
              </>
            ) : (
              <i>{species.name_scientific}</i>
            )}
          </h1>
          {otherName && otherName !== name ? (
            <p class="other-name" lang={lang === 'de' ? 'en' : 'de'}>
              {otherName}
            </p>
          ) : null}
          {family.data ? (
            <p>
              {t('family')}:{' '}
              <a href={`/families/${family.data.slug}`}>
                {commonName(family.data, lang) ? `${commonName(family.data, lang)} ` : ''}
                <i>{family.data.name_scientific}</i>
              </a>
            </p>
          ) : null}
          <p>
            <a href={`/guild/${species.slug}`}>{t('guildLink')}</a>
          </p>
          {canWrite ? (
            <div class="edit-controls">
              <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
                {t('edit')}
              </button>
              <DeleteButton
                path={`/api/v1/species/${species.id}`}
                what={species.name_scientific}
                onDeleted={() => route('/browse')}
              />
              <a href={`/new/cultivar?species=${species.slug}`}>{t('newCultivarHere')}</a>
            </div>
          ) : null}
        </div>
      </header>
      <Warnings record={species} />
      {editing ? (
        <section class="editor" aria-label={t('edit')}>
          <EditForm
            id="species-edit"
            fields={EDITABLE}
            record={species}
            onSubmit={(payload, reason) => api.put(`/api/v1/species/${species.id}`, payload, reason)}
            onDone={() => {
              setEditing(false);
              reload();
            }}
            onCancel={() => setEditing(false)}
          />
        </section>
      ) : null}
      <FieldGroups record={species} groups={SPECIES_GROUPS} />
      <EdibleParts parts={species.edible_parts} />
      <Companions species={species} />
      <CultivarList speciesSlug={species.slug} />
      <Gallery entityType="species" entityId={species.id} name={name ?? species.name_scientific} />
      <History kind="species" id={species.id} version={String(species.updated_at)} onReverted={reload} />
    </article>
  );
}
