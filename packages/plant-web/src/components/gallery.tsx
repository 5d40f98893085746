import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Image } from '../api.js';
import { DeleteButton } from '../edit/delete-button.js';
import { useT } from '../i18n.js';
import { safeHref } from '../safe-href.js';
import { useCanWrite } from '../session.js';
import { useApi } from '../use-api.js';
import { Picture } from './picture.js';

type EntityType = 'family' | 'species' | 'cultivar';

/** A record's images with caption, licence and source; editors upload more, admins delete. */
export function Gallery(props: { entityType: EntityType; entityId: string; name: string }) {
  const { t } = useT();
  const canWrite = useCanWrite();
  const images = useApi<Image[]>(`/api/v1/images/${props.entityType}/${props.entityId}`);
  const list = images.data ?? [];
  if (list.length === 0 && !canWrite) return null;
  return (
    <section aria-labelledby="images-title" class="gallery">
      <h2 id="images-title">{t('images')}</h2>
      <ul>
        {list.map((image) => (
          <li key={image.id}>
            <figure>
              <Picture
                imageKey={image.store_key}
                alt={image.caption ?? props.name}
                sizes="(max-width: 600px) 100vw, 320px"
                width={640}
              />
              <figcaption>
                {image.caption}
                {image.license || image.source_url ? (
                  <small>
                    {' '}
                    {image.license}
                    {safeHref(image.source_url) ? (
                      <>
                        {' · '}
                        <a href={safeHref(image.source_url)}>{t('source')}</a>
                      </>
                    ) : null}
                  </small>
                ) : null}
              </figcaption>
            </figure>
            <DeleteButton
              path={`/api/v1/images/${image.id}`}
              what={image.caption ?? t('images')}
              onDeleted={images.reload}
            />
          </li>
        ))}
      </ul>
      {canWrite ? <ImageUpload {...props} onUploaded={images.reload} /> : null}
    </section>
  );
}

function ImageUpload(props: { entityType: EntityType; entityId: string; onUploaded(): void }) {
  const { t } = useT();
  const [file, setFile] = useState<File | undefined>();
  const [preview, setPreview] = useState<string | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [status, setStatus] = useState<'idle' | 'busy' | 'done'>('idle');

  // A data: URL, which the service's CSP allows for images (blob: it does not).
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setPreview(String(reader.result));
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    // The API wants the file as the last part, after the descriptive fields.
    const body = new FormData();
    body.set('entity_type', props.entityType);
    body.set('entity_id', props.entityId);
    for (const key of ['caption', 'license', 'source_url']) {
      const value = String(fields.get(key) ?? '').trim();
      if (value) body.set(key, value);
    }
    if (file) body.set('file', file);
    setStatus('busy');
    setError(undefined);
    try {
      await api.post('/api/v1/images', body);
      setStatus('done');
      form.reset();
      setFile(undefined);
      setPreview(undefined);
      props.onUploaded();
    } catch (caught) {
      setStatus('idle');
      setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
    }
  };

  const fieldError = (name: string) =>
    error && (error.field === name || (name === 'file' && !error.field)) ? (
      <p class="field-error" role="alert">
        {error.message}
      </p>
    ) : null;

  return (
    <form class="upload edit-form" onSubmit={submit} aria-labelledby="upload-title">
      <h3 id="upload-title">{t('uploadImage')}</h3>
      <div class="form-field">
        <label for="upload-file">{t('file')}</label>
        <input
          id="upload-file"
          name="file"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          required
          onChange={(e) => setFile(e.currentTarget.files?.[0])}
        />
        {fieldError('file')}
      </div>
      {preview ? <img class="preview" src={preview} alt={t('preview')} /> : null}
      <div class="form-field">
        <label for="upload-caption">{t('caption')}</label>
        <input id="upload-caption" name="caption" type="text" maxLength={2000} />
        {fieldError('caption')}
      </div>
      <div class="form-field">
        <label for="upload-license">{t('license')}</label>
        <input id="upload-license" name="license" type="text" maxLength={300} placeholder="CC BY-SA 4.0" />
        {fieldError('license')}
      </div>
      <div class="form-field">
        <label for="upload-source">{t('sourceUrl')}</label>
        <input id="upload-source" name="source_url" type="url" maxLength={2000} />
        {fieldError('source_url')}
      </div>
      <button type="submit" class="primary" disabled={!file || status === 'busy'}>
        {t('upload')}
      </button>
      {status === 'done' ? (
        <p class="ok" role="status">
          {t('uploaded')}
        </p>
      ) : null}
    </form>
  );
}
