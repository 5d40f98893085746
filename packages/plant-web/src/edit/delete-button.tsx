import { useState } from 'preact/hooks';
import { ApiError, api } from '../api.js';
import { useT } from '../i18n.js';
import { useCanWrite, useIsAdmin } from '../session.js';

/**
 * Deletes `path` after a confirmation, then calls onDeleted. Shown to administrators, or to
 * everyone who may write when `writers` says the API lets them delete this.
 */
export function DeleteButton(props: { path: string; what: string; onDeleted(): void; writers?: boolean }) {
  const { t } = useT();
  const admin = useIsAdmin();
  const writer = useCanWrite();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | undefined>();
  if (!(admin || (props.writers && writer))) return null;
  if (!confirming) {
    return (
      <button type="button" class="danger" onClick={() => setConfirming(true)}>
        {t('delete')}: {props.what}
      </button>
    );
  }
  return (
    <div class="confirm" role="alertdialog" aria-label={t('confirmDelete')}>
      <p>
        {t('confirmDelete')} ({props.what})
      </p>
      <button
        type="button"
        class="danger"
        onClick={() =>
          api
            .del(props.path)
            .then(props.onDeleted, (e: unknown) => setError(e instanceof ApiError ? e.message : String(e)))
        }
      >
        {t('delete')}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        {t('cancel')}
      </button>
      {error ? <p class="field-error">{error}</p> : null}
    </div>
  );
}
