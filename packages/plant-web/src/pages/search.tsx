import { useLocation } from 'preact-iso';
import { type SearchResult, withQuery } from '../api.js';
import { Loading, useTitle } from '../components/common.js';
import { resultHref, resultTitle } from '../components/search-box.js';
import { useT } from '../i18n.js';
import { useApi } from '../use-api.js';

export function SearchPage() {
  const { t, lang } = useT();
  const { query } = useLocation();
  const q = (query.q ?? '').trim();
  useTitle(`${t('results')}: ${q}`);
  const found = useApi<SearchResult[]>(q ? withQuery('/api/v1/search', { q, limit: 50 }) : null);
  return (
    <>
      <h1>
        {t('results')}: „{q}“
      </h1>
      {q ? (
        <Loading {...found}>
          {(results) =>
            results.length === 0 ? (
              <p>{t('noResults')}</p>
            ) : (
              <ul class="results">
                {results.map((result) => {
                  const { main, sub } = resultTitle(result, lang);
                  return (
                    <li key={result.id}>
                      <span class="kind">{t(result.entity_type)}</span>{' '}
                      <a href={resultHref(result)}>{main}</a> <span class="sub">{sub}</span>
                    </li>
                  );
                })}
              </ul>
            )
          }
        </Loading>
      ) : null}
    </>
  );
}
