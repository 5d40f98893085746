import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, type Supplier } from '../api.js';
import { Loading, useTitle } from '../components/common.js';
import { FieldGroups } from '../components/fields.js';
import { History } from '../components/history.js';
import { DeleteButton } from '../edit/delete-button.js';
import { EditForm } from '../edit/edit-form.js';
import { useT } from '../i18n.js';
import { SUPPLIER_FIELDS } from '../labels.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';

const GROUPS = [{ title: ['Angaben', 'Details'] as const, fields: SUPPLIER_FIELDS }];

/** All suppliers, by name, each linking to its page. */
export function SuppliersPage() {
  const { t } = useT();
  const canWrite = useCanWrite();
  const suppliers = useApi<Supplier[]>('/api/v1/suppliers');
  useTitle(t('suppliers'));
  return (
    <>
      <h1>{t('suppliers')}</h1>
      {canWrite ? (
        <p class="edit-controls">
          <a href="/new/supplier">{t('newSupplier')}</a>
        </p>
      ) : null}
      <Loading {...suppliers}>
        {(list) => (
          <ul class="supplier-list">
            {list.map((s) => (
              <li key={s.id}>
                <a href={`/suppliers/${s.slug}`}>{s.name}</a>
                {s.country ? ` · ${s.country}` : ''}
                {s.is_organic ? ' · Bio' : ''}
              </li>
            ))}
          </ul>
        )}
      </Loading>
    </>
  );
}

export function SupplierPage() {
  const { params } = useRoute();
  const supplier = useApi<Supplier>(`/api/v1/suppliers/${encodeURIComponent(params.slug ?? '')}`);
  return <Loading {...supplier}>{(s) => <SupplierView supplier={s} reload={supplier.reload} />}</Loading>;
}

/** A supplier's own record; editors change it in place, administrators may delete it. */
function SupplierView({ supplier, reload }: { supplier: Supplier; reload(): void }) {
  const { t } = useT();
  const { route } = useLocation();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState(false);
  useTitle(supplier.name);
  return (
    <article class="record">
      <p class="kind">{t('supplier')}</p>
      <h1>{supplier.name}</h1>
      {canWrite ? (
        <div class="edit-controls">
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {t('edit')}
          </button>
          <DeleteButton
            path={`/api/v1/suppliers/${supplier.id}`}
            what={supplier.name}
            onDeleted={() => route('/suppliers')}
          />
        </div>
      ) : null}
      {editing ? (
        <section class="editor" aria-label={t('editSupplier')}>
          <EditForm
            id="supplier-edit"
            fields={SUPPLIER_FIELDS}
            record={supplier}
            onSubmit={(payload, reason) => api.put(`/api/v1/suppliers/${supplier.id}`, payload, reason)}
            onDone={() => {
              setEditing(false);
              reload();
            }}
            onCancel={() => setEditing(false)}
          />
        </section>
      ) : null}
      <FieldGroups record={supplier} groups={GROUPS} />
      <History kind="suppliers" id={supplier.id} version={String(supplier.updated_at)} onReverted={reload} />
    </article>
  );
}
