import { useLocation } from 'preact-iso';
import type { Family, Member, Page } from '../api.js';
import { withQuery } from '../api.js';
import { commonName, Loading, SpeciesCard, useTitle } from '../components/common.js';
import { useT } from '../i18n.js';
import { DROUGHT_TOLERANCE, NATIVE_STATUSES, PLANT_LAYERS, valueLabel } from '../labels.js';
import { useApi } from '../use-api.js';

const PER_PAGE = 24;
const FACETS = 'plant_layer,family,native_status,drought_tolerance,nitrogen_fixer';
const FILTERS = [
  'plant_layer',
  'nitrogen_fixer',
  'dynamic_accumulator',
  'drought_tolerance',
  'native_status',
  'hardiness_zone',
  'min_nectar',
  'family',
] as const;
type Filter = (typeof FILTERS)[number];
const ZONES = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13'];

type Counts = Map<string, number>;

/**
 * The species browser: filters kept in the address (so a filtered list can be shared and the
 * back button works), counts per option from the API's facets, paginated cards.
 */
export function BrowsePage() {
  const { t, lang } = useT();
  const { query, path, route } = useLocation();
  useTitle(t('browse'));
  const filters = Object.fromEntries(FILTERS.map((key) => [key, query[key] ?? ''])) as Record<Filter, string>;
  const page = Math.max(1, Number(query.page ?? 1) || 1);
  const list = useApi<Page<Member>>(
    withQuery('/api/v1/species', { ...filters, page, per_page: PER_PAGE, facets: FACETS }),
  );
  const families = useApi<Page<Family>>('/api/v1/families?per_page=100');

  const set = (key: Filter | 'page', value: string) => {
    const next: Record<string, string> = { ...filters, page: '' };
    next[key] = value;
    route(withQuery(path, next), true);
  };
  const counts = (facet: string): Counts | undefined => {
    // A facet's counts for its other options mean nothing while its own filter narrows the set.
    if (filters[facet as Filter]) return undefined;
    const values = list.data?.facets?.[facet];
    return values ? new Map(values.map((v) => [String(v.value), v.count])) : undefined;
  };

  const choice = (key: Filter, values: readonly string[], text: (v: string) => string, facet?: string) => {
    const n = facet ? counts(facet) : undefined;
    return (
      <div class="filter">
        <label for={`filter-${key}`}>{FILTER_LABELS[key][lang === 'de' ? 0 : 1]}</label>
        <select id={`filter-${key}`} value={filters[key]} onChange={(e) => set(key, e.currentTarget.value)}>
          <option value="">{t('any')}</option>
          {values.map((v) => (
            <option key={v} value={v}>
              {text(v)}
              {n ? ` (${n.get(v) ?? 0})` : ''}
            </option>
          ))}
        </select>
      </div>
    );
  };
  const yesNo = (v: string) => (v === 'true' ? t('yes') : t('no'));
  const familyName = new Map(
    (families.data?.data ?? []).map((f) => [
      f.slug,
      commonName(f, lang) ? `${commonName(f, lang)} (${f.name_scientific})` : f.name_scientific,
    ]),
  );

  return (
    <>
      <h1>{t('browse')}</h1>
      <form class="filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        {choice('plant_layer', PLANT_LAYERS, (v) => valueLabel(v, lang), 'plant_layer')}
        {choice('nitrogen_fixer', ['true', 'false'], yesNo, 'nitrogen_fixer')}
        {choice('dynamic_accumulator', ['true', 'false'], yesNo)}
        {choice('drought_tolerance', DROUGHT_TOLERANCE, (v) => valueLabel(v, lang), 'drought_tolerance')}
        {choice('native_status', NATIVE_STATUSES, (v) => valueLabel(v, lang), 'native_status')}
        {choice('hardiness_zone', ZONES, (v) => v)}
        {choice('min_nectar', ['1', '2', '3', '4'], (v) => `≥ ${v}`)}
        {choice('family', [...familyName.keys()], (v) => familyName.get(v) ?? v, 'family')}
      </form>
      <Loading {...list}>
        {(result) => {
          const pages = Math.max(1, Math.ceil(result.total / PER_PAGE));
          return (
            <>
              <p class="total" aria-live="polite">
                <strong data-total>{result.total}</strong> {t('speciesPlural')} {t('found')}
              </p>
              <ul class="cards">
                {result.data.map((s) => (
                  <SpeciesCard key={s.id} member={s} />
                ))}
              </ul>
              <nav class="pager" aria-label={t('pageOf')}>
                {page > 1 ? (
                  <button type="button" onClick={() => set('page', String(page - 1))}>
                    {t('previous')}
                  </button>
                ) : null}
                <span>
                  {t('pageOf')} {page} / {pages}
                </span>
                {page < pages ? (
                  <button type="button" onClick={() => set('page', String(page + 1))}>
                    {t('next')}
                  </button>
                ) : null}
              </nav>
            </>
          );
        }}
      </Loading>
    </>
  );
}

const FILTER_LABELS: Record<Filter, [string, string]> = {
  plant_layer: ['Schicht', 'Layer'],
  nitrogen_fixer: ['Bindet Stickstoff', 'Fixes nitrogen'],
  dynamic_accumulator: ['Nährstoffsammler', 'Dynamic accumulator'],
  drought_tolerance: ['Trockenheitsverträglichkeit', 'Drought tolerance'],
  native_status: ['Status in Mitteleuropa', 'Status in Central Europe'],
  hardiness_zone: ['Winterhärtezone (USDA)', 'Hardiness zone (USDA)'],
  min_nectar: ['Nektarwert mindestens', 'Nectar value at least'],
  family: ['Familie', 'Family'],
};
