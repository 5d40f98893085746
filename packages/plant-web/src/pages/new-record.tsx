import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { ApiError, api, type Family, getAll, type Member } from '../api.js';
import { commonName, Loading, useTitle } from '../components/common.js';
import { EditForm } from '../edit/edit-form.js';
import { type Lang, type StringKey, useT } from '../i18n.js';
import { FAMILY_FIELDS, type FieldSpec, PLANT_LAYERS, SUPPLIER_FIELDS } from '../labels.js';
import { useCanWrite, useUser } from '../session.js';

type Named = {
  id: string;
  slug: string;
  name_scientific: string;
  name_de: string | null;
  name_en: string | null;
};

/** What each kind of record needs: its form, where it is created, where its page is. */
interface Kind {
  title: StringKey;
  collection: string;
  page: string;
  /** The records the form picks its parent from (a species' family, a cultivar's species). */
  parent?: { key: string; label: readonly [string, string]; list: string; query: string };
  fields: FieldSpec[];
  defaults?: Record<string, unknown>;
}

const KINDS: Record<string, Kind> = {
  family: { title: 'newFamily', collection: 'families', page: 'families', fields: FAMILY_FIELDS },
  species: {
    title: 'newSpecies',
    collection: 'species',
    page: 'species',
    parent: { key: 'family_id', label: ['Familie', 'Family'], list: '/api/v1/families', query: 'family' },
    fields: [
      { key: 'name_scientific', label: ['Wissenschaftlicher Name', 'Scientific name'], kind: 'text' },
      { key: 'name_de', label: ['Deutscher Name', 'German name'], kind: 'text' },
      { key: 'name_en', label: ['Englischer Name', 'English name'], kind: 'text' },
      {
        key: 'plant_layer',
        label: ['Schicht im Waldgarten', 'Forest-garden layer'],
        kind: 'enum',
        values: PLANT_LAYERS,
      },
    ],
  },
  cultivar: {
    title: 'newCultivar',
    collection: 'cultivars',
    page: 'cultivars',
    parent: { key: 'species_id', label: ['Art', 'Species'], list: '/api/v1/species', query: 'species' },
    fields: [
      { key: 'name', label: ['Sortenname', 'Cultivar name'], kind: 'text' },
      { key: 'name_de', label: ['Deutscher Name', 'German name'], kind: 'text' },
      { key: 'name_en', label: ['Englischer Name', 'English name'], kind: 'text' },
    ],
  },
  supplier: {
    title: 'newSupplier',
    collection: 'suppliers',
    page: 'suppliers',
    fields: SUPPLIER_FIELDS,
    defaults: { is_organic: false, is_biodynamic: false },
  },
};

/** For editors: the kinds of record they can add. */
export function NewPage() {
  const { t } = useT();
  useTitle(t('newRecord'));
  return (
    <>
      <h1>{t('newRecord')}</h1>
      <EditorsOnly>
        <p>{t('newRecordIntro')}</p>
        <ul class="new-kinds">
          {Object.entries(KINDS).map(([kind, { title }]) => (
            <li key={kind}>
              <a href={`/new/${kind}`}>{t(title)}</a>
            </li>
          ))}
        </ul>
      </EditorsOnly>
    </>
  );
}

/** Content for people who may write; a note for everyone else, once the session is known. */
function EditorsOnly({ children }: { children: ComponentChildren }) {
  const { t } = useT();
  const user = useUser();
  const canWrite = useCanWrite();
  if (user === undefined) return <p class="loading">{t('loading')}</p>;
  if (!canWrite) return <p class="notice">{t('editorsOnly')}</p>;
  return <>{children}</>;
}

const pickerName = (record: Named, lang: Lang) => {
  const name = commonName(record, lang);
  return name ? `${record.name_scientific} (${name})` : record.name_scientific;
};

/** A form that creates one record (its parent picked from a list), then opens the record's page. */
export function NewRecordPage() {
  const { t } = useT();
  const { params } = useRoute();
  const kind = KINDS[params.kind ?? ''];
  useTitle(kind ? t(kind.title) : t('notFound'));
  if (!kind) {
    return (
      <div class="notice error" role="alert">
        <h1>{t('notFound')}</h1>
        <p>{t('notFoundText')}</p>
      </div>
    );
  }
  return (
    <>
      <h1>{t(kind.title)}</h1>
      <EditorsOnly>
        <CreateForm key={params.kind} kindName={params.kind ?? ''} kind={kind} />
      </EditorsOnly>
    </>
  );
}

function CreateForm({ kindName, kind }: { kindName: string; kind: Kind }) {
  const { lang } = useT();
  const { route, query } = useLocation();
  const [parents, setParents] = useState<Named[] | undefined>(kind.parent ? undefined : []);
  const [error, setError] = useState<ApiError | undefined>();
  useEffect(() => {
    if (!kind.parent) return;
    getAll<Family | Member>(kind.parent.list).then(setParents, (e: unknown) =>
      setError(e instanceof ApiError ? e : new ApiError(0, String(e))),
    );
  }, [kind]);
  return (
    <Loading data={parents} error={error}>
      {(list) => {
        const parent = kind.parent;
        const names = new Map(list.map((p) => [p.id, pickerName(p, lang)]));
        const chosen = parent ? list.find((p) => p.slug === query[parent.query]) : undefined;
        const fields: FieldSpec[] = parent
          ? [
              {
                key: parent.key,
                label: parent.label,
                kind: 'enum',
                required: true,
                values: [...list]
                  .sort((a, b) => a.name_scientific.localeCompare(b.name_scientific))
                  .map((p) => p.id),
              },
              ...kind.fields,
            ]
          : kind.fields;
        return (
          <EditForm
            id={`new-${kindName}`}
            creating
            fields={fields}
            record={{ ...kind.defaults, ...(parent && chosen ? { [parent.key]: chosen.id } : {}) }}
            submitLabel="create"
            valueText={(v) => names.get(v)}
            onSubmit={async (payload) => {
              const created = await api.post<{ slug: string }>(`/api/v1/${kind.collection}`, payload);
              route(`/${kind.page}/${created.slug}`);
            }}
          />
        );
      }}
    </Loading>
  );
}
