import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Cultivar, type CultivarSupplier, type Species, type Supplier } from '../api.js';
import { commonName, Loading, useTitle } from '../components/common.js';
import { WhereToBuy } from '../components/cultivar-list.js';
import { FieldGroups } from '../components/fields.js';
import { Gallery } from '../components/gallery.js';
import { History } from '../components/history.js';
import { DeleteButton } from '../edit/delete-button.js';
import { EditForm } from '../edit/edit-form.js';
import { useT } from '../i18n.js';
import { CULTIVAR_GROUPS, editableFields, type FieldSpec } from '../labels.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';

const EDITABLE = editableFields(CULTIVAR_GROUPS);

export function CultivarPage() {
  const { params } = useRoute();
  const cultivar = useApi<Cultivar>(`/api/v1/cultivars/${encodeURIComponent(params.slug ?? '')}`);
  return <Loading {...cultivar}>{(c) => <CultivarView cultivar={c} reload={cultivar.reload} />}</Loading>;
}

function CultivarView({ cultivar, reload }: { cultivar: Cultivar; reload(): void }) {
  const { t, lang } = useT();
  const { route } = useLocation();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState(false);
  const species = useApi<Species>(`/api/v1/species/${cultivar.species_id}`);
  const suppliers = useApi<Supplier[]>('/api/v1/suppliers');
  useTitle(cultivar.name);
  const local = commonName(cultivar, lang);
  return (
    <article class="record">
      <p class="kind">{t('cultivar')}</p>
      <h1>
        {cultivar.name}
        {local && local !== cultivar.name ? <span class="sub"> ({local})</span> : null}
      </h1>
      {species.data ? (
        <p>
          {t('species')}:{' '}
          <a href={`/species/${species.data.slug}`}>
            {commonName(species.data, lang) ? `${commonName(species.data, lang)} ` : ''}
            <i>{species.data.name_scientific}</i>
          </a>
        </p>
      ) : null}
      {canWrite ? (
        <div class="edit-controls">
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {t('edit')}
          </button>
          <DeleteButton
            path={`/api/v1/cultivars/${cultivar.id}`}
            what={cultivar.name}
            onDeleted={() => route(species.data ? `/species/${species.data.slug}` : '/browse')}
          />
        </div>
      ) : null}
      {editing ? (
        <EditForm
          id="cultivar-edit"
          fields={[{ key: 'name', label: ['Sortenname', 'Cultivar name'], kind: 'text' }, ...EDITABLE]}
          record={cultivar}
          onSubmit={(payload, reason) => api.put(`/api/v1/cultivars/${cultivar.id}`, payload, reason)}
          onDone={() => {
            setEditing(false);
            reload();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      <FieldGroups record={cultivar} groups={CULTIVAR_GROUPS} />
      <WhereToBuy cultivar={cultivar} suppliers={suppliers.data} />
      {canWrite ? <SupplierLinks cultivar={cultivar} suppliers={suppliers.data ?? []} /> : null}
      <Gallery entityType="cultivar" entityId={cultivar.id} name={cultivar.name} />
      <History kind="cultivars" id={cultivar.id} version={String(cultivar.updated_at)} onReverted={reload} />
    </article>
  );
}

const LINK_FIELDS = (suppliers: Supplier[]): FieldSpec[] => [
  {
    key: 'supplier_id',
    label: ['Anbieter', 'Supplier'],
    kind: 'enum',
    values: suppliers.map((s) => s.id),
  },
  { key: 'product_url', label: ['Produktseite', 'Product page'], kind: 'text' },
  { key: 'price_eur', label: ['Preis (EUR)', 'Price (EUR)'], kind: 'number' },
  { key: 'pack_size', label: ['Packungsgröße', 'Pack size'], kind: 'number' },
  { key: 'pack_unit', label: ['Einheit', 'Unit'], kind: 'text' },
  { key: 'article_number', label: ['Artikelnummer', 'Article number'], kind: 'text' },
];

/** For editors: link a supplier to the cultivar, or remove a link. */
function SupplierLinks({ cultivar, suppliers }: { cultivar: Cultivar; suppliers: Supplier[] }) {
  const { t } = useT();
  const links = useApi<CultivarSupplier[]>(`/api/v1/cultivars/${cultivar.slug}/suppliers`);
  const names = new Map(suppliers.map((s) => [s.id, s.name]));
  return (
    <details class="editor">
      <summary>{t('linkSupplier')}</summary>
      <ul>
        {(links.data ?? []).map((link) => (
          <li key={link.id}>
            {names.get(link.supplier_id) ?? link.supplier_id}{' '}
            <DeleteButton
              writers
              path={`/api/v1/cultivars/${cultivar.id}/suppliers/${link.supplier_id}`}
              what={names.get(link.supplier_id) ?? ''}
              onDeleted={links.reload}
            />
          </li>
        ))}
      </ul>
      <SupplierSelectForm cultivar={cultivar} suppliers={suppliers} onDone={links.reload} />
      <p>
        <a href="/new/supplier">{t('newSupplier')}</a>
      </p>
    </details>
  );
}

function SupplierSelectForm(props: { cultivar: Cultivar; suppliers: Supplier[]; onDone(): void }) {
  const fields = LINK_FIELDS(props.suppliers);
  const names = new Map(props.suppliers.map((s) => [s.id, s.name]));
  return (
    <div class="supplier-form">
      <EditForm
        id="supplier-link"
        fields={fields}
        record={{}}
        submitLabel="add"
        valueText={(v) => names.get(v) ?? v}
        onSubmit={(payload, reason) =>
          api.post(`/api/v1/cultivars/${props.cultivar.id}/suppliers`, payload, reason)
        }
        onDone={props.onDone}
      />
    </div>
  );
}
