import { useTitle } from '../components/common.js';
import { useT } from '../i18n.js';

export function NotFound() {
  const { t } = useT();
  useTitle(t('notFound'));
  return (
    <>
      <h1>{t('notFound')}</h1>
      <p>{t('notFoundText')}</p>
      <p>
        <a href="/">{t('home')}</a>
      </p>
    </>
  );
}
