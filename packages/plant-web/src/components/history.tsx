/**
 * A record's history from the service's change log, newest first: per change what happened,
 * when, who and why, and each field before and after. Editors may revert a change; when later
 * changes touched the same fields, the refusal says which and the editor may overwrite them.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Change, type Page } from '../api.js';
import { type StringKey, useT } from '../i18n.js';
import { fieldLabel } from '../labels.js';
import { useCanWrite, useIsAdmin } from '../session.js';
import { useApi } from '../use-api.js';

export type HistoryKind = 'families' | 'species' | 'cultivars' | 'suppliers';

const PER_PAGE = 20;

const OP_LABELS: Record<Change['op'], StringKey> = {
  create: 'opCreate',
  update: 'opUpdate',
  delete: 'opDelete',
};

/** A field's value as a cell shows it. */
function shown(value: unknown, yes: string, no: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? yes : no;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `version` changes when the record does (its `updated_at`): an open history is read again. */
export function History(props: { kind: HistoryKind; id: string; version: string; onReverted(): void }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const path = `/api/v1/${props.kind}/${props.id}/history?page=${page}&per_page=${PER_PAGE}`;
  const history = useApi<Page<Change>>(open ? path : null);
  const { reload } = history;
  // Read again when the record changed.
  useEffect(() => reload(), [props.version, reload]);
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / PER_PAGE)) : 1;
  return (
    <section class="history" aria-labelledby="history-title">
      <h2 id="history-title">{t('history')}</h2>
      <button type="button" aria-expanded={open} aria-controls="history-list" onClick={() => setOpen(!open)}>
        {open ? t('hideHistory') : t('showHistory')}
      </button>
      <div id="history-list">
        {!open ? null : history.error ? (
          <p class="field-error" role="alert">
            {history.error.message}
          </p>
        ) : !history.data ? (
          <p class="loading" aria-live="polite">
            {t('loading')}
          </p>
        ) : history.data.data.length === 0 ? (
          <p>{t('noHistory')}</p>
        ) : (
          <>
            <ol class="changes">
              {history.data.data.map((change) => (
                <ChangeItem
                  key={change.position}
                  change={change}
                  kind={props.kind}
                  onReverted={() => {
                    setPage(1);
                    history.reload();
                    props.onReverted();
                  }}
                />
              ))}
            </ol>
            {pages > 1 ? (
              <nav class="pager" aria-label={t('history')}>
                <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  {t('previous')}
                </button>{' '}
                {t('pageOf')} {page} / {pages}{' '}
                <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  {t('next')}
                </button>
              </nav>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

function ChangeItem(props: { change: Change; kind: HistoryKind; onReverted(): void }) {
  const { t, lang } = useT();
  const canWrite = useCanWrite();
  const admin = useIsAdmin();
  const [refusal, setRefusal] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const { change } = props;
  const titleId = `change-${change.position}`;
  const who =
    change.actor.kind === 'import'
      ? t('actorImport')
      : change.actor.kind === 'database'
        ? t('actorDatabase')
        : `${change.actor.name ?? t('someone')}${change.actor.kind === 'token' ? ` (${t('actorToken')})` : ''}`;
  // Reverting a create deletes the record, which only administrators may.
  const revertable = canWrite && (change.op !== 'create' || admin);

  const revert = async (overwrite: boolean) => {
    setBusy(true);
    try {
      await api.post(
        `/api/v1/${props.kind}/${change.id}/history/${change.position}/revert`,
        overwrite ? { overwrite: true } : {},
      );
      setRefusal(undefined);
      props.onReverted();
    } catch (caught) {
      setRefusal(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
    } finally {
      setBusy(false);
    }
  };

  const fields = Object.entries(change.fields).filter(([key]) => key !== 'id');
  return (
    <li class="change" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {t(OP_LABELS[change.op])} ·{' '}
        <time dateTime={change.committed_at}>
          {new Date(change.committed_at).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB')}
        </time>
      </h3>
      <dl class="change-meta">
        <dt>{t('who')}</dt>
        <dd>
          {who}
          {change.actor.email ? ` <${change.actor.email}>` : ''}
        </dd>
        {change.reason ? (
          <>
            <dt>{t('reason')}</dt>
            <dd class="change-reason">{change.reason}</dd>
          </>
        ) : null}
        {change.reverts !== null ? (
          <>
            <dt>{t('revertsChange')}</dt>
            <dd>#{change.reverts}</dd>
          </>
        ) : null}
      </dl>
      <table class="change-fields">
        <thead>
          <tr>
            <th scope="col">{t('field')}</th>
            <th scope="col">{t('before')}</th>
            <th scope="col">{t('after')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map(([key, value]) => (
            <tr key={key} data-field={key}>
              <th scope="row">{fieldLabel(key, lang)}</th>
              <td>{shown(value.old, t('yes'), t('no'))}</td>
              <td>{shown(value.new, t('yes'), t('no'))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {revertable ? (
        <div class="buttons">
          <button type="button" class="revert" disabled={busy} onClick={() => revert(false)}>
            {t('revert')}
          </button>
          {refusal?.status === 409 ? (
            <button type="button" class="danger overwrite" disabled={busy} onClick={() => revert(true)}>
              {t('overwrite')}
            </button>
          ) : null}
        </div>
      ) : null}
      {refusal ? (
        <p class="field-error" role="alert">
          {refusal.message}
        </p>
      ) : null}
    </li>
  );
}
