import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { ApiError, Member } from '../api.js';
import { type Lang, useT } from '../i18n.js';
import { Picture } from './picture.js';

/** Sets the document title for the page shown. */
export function useTitle(title: string | undefined) {
  const { t } = useT();
  useEffect(() => {
    document.title = title ? `${title} – ${t('siteName')}` : t('siteName');
  }, [title, t]);
}

/** The common name in the page's language, else the other one. */
export function commonName(record: { name_de?: string | null; name_en?: string | null }, lang: Lang) {
  return (
    (lang === 'de' ? record.name_de : record.name_en) ??
    (lang === 'de' ? record.name_en : record.name_de) ??
    null
  );
}

/** Loading, or the API's error, or the content. */
export function Loading<T>(props: {
  data: T | undefined;
  error: ApiError | undefined;
  children: (data: T) => ComponentChildren;
}) {
  const { t } = useT();
  if (props.error) {
    return (
      <div class="notice error" role="alert">
        <h1>{props.error.status === 404 ? t('notFound') : t('error')}</h1>
        <p>{props.error.message}</p>
      </div>
    );
  }
  if (props.data === undefined) {
    return (
      <p class="loading" aria-live="polite">
        {t('loading')}
      </p>
    );
  }
  return <>{props.children(props.data)}</>;
}

/** A species as a card: thumbnail, common name, scientific name. */
export function SpeciesCard({ member, extra }: { member: Member; extra?: ComponentChildren }) {
  const { lang } = useT();
  const name = commonName(member, lang);
  return (
    <li class="card">
      <a href={`/species/${member.slug}`}>
        {member.primary_image_key ? (
          <Picture imageKey={member.primary_image_key} alt="" sizes="96px" width={160} class="thumb" />
        ) : (
          <span class="thumb placeholder" aria-hidden="true">
            {member.name_scientific.slice(0, 1)}
          </span>
        )}
        <span class="names">
          <strong>{name ?? <i>{member.name_scientific}</i>}</strong>
          {name ? <i>{member.name_scientific}</i> : null}
        </span>
      </a>
      {extra}
    </li>
  );
}
