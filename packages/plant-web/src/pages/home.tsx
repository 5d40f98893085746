import { useTitle } from '../components/common.js';
import { useT } from '../i18n.js';

export function HomePage() {
  const { t } = useT();
  useTitle(undefined);
  return (
    <>
      <h1>{t('siteName')}</h1>
      <p class="lead">{t('intro')}</p>
      <ul class="tiles">
        <li>
          <a href="/browse">{t('browse')}</a>
        </li>
        <li>
          <a href="/sow">{t('sow')}</a>
        </li>
        <li>
          <a href="/check">{t('check')}</a>
        </li>
      </ul>
    </>
  );
}
