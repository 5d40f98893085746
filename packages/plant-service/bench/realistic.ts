/**
 * Uncached traffic for the benchmark: seeded generators that draw a new URL for every request over
 * the whole synthetic dataset, the way a type-ahead box, a filter panel and crawlers do. Seeded, so
 * two runs send the same sequence.
 */
import { NATIVE_STATUSES, PLANT_LAYERS, TOLERANCE_LEVELS } from '../src/schema/vocabularies.js';
import { type makeDataset, prng } from './generate.js';

type Dataset = ReturnType<typeof makeDataset>;
export type NextPath = () => string;

/** The number of distinct search texts a type-ahead run draws from. */
export const SEARCH_QUERIES = 5_000;

export function realisticScenarios(data: Dataset, seed = 7) {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)] as T;

  const bySlug: NextPath = () => `/api/v1/species/${pick(data.speciesRows).slug}`;

  const filteredList: NextPath = () => {
    const params = new URLSearchParams();
    if (rnd() < 0.7) params.set('family', pick(data.familyRows).slug);
    if (rnd() < 0.5) params.set('plant_layer', pick(PLANT_LAYERS));
    if (rnd() < 0.4) params.set('nitrogen_fixer', String(rnd() < 0.5));
    if (rnd() < 0.2) params.set('dynamic_accumulator', 'true');
    if (rnd() < 0.2) params.set('drought_tolerance', pick(TOLERANCE_LEVELS));
    if (rnd() < 0.1) params.set('native_status', pick(NATIVE_STATUSES));
    if (rnd() < 0.4) params.set('min_nectar', String(1 + int(4)));
    params.set('page', String(1 + int(5)));
    return `/api/v1/species?${params}`;
  };

  const cultivarList: NextPath = () =>
    rnd() < 0.5
      ? `/api/v1/cultivars?species=${pick(data.speciesRows).slug}`
      : `/api/v1/cultivars?page=${1 + int(200)}`;

  // What people type: the start (3–8 characters) of one or two words of a plant's names.
  const prefix = (word: string) => word.slice(0, Math.min(word.length, 3 + int(6)));
  const queries = new Set<string>();
  while (queries.size < SEARCH_QUERIES) {
    const s = pick(data.speciesRows);
    const words = [...s.name_scientific.split(' '), ...s.name_en.split(' '), s.name_de];
    const first = pick(words);
    const terms = [prefix(first)];
    if (rnd() < 0.5) terms.push(prefix(pick(words.filter((w) => w !== first))));
    queries.add(terms.join(' '));
  }
  const searchTexts = [...queries];
  const search: NextPath = () => `/api/v1/search?q=${encodeURIComponent(pick(searchTexts))}`;

  const mixed: NextPath = () => {
    const r = rnd();
    if (r < 0.5) return bySlug();
    if (r < 0.7) return search();
    if (r < 0.9) return filteredList();
    return cultivarList();
  };

  return {
    'species by slug (uniform)': bySlug,
    'filtered species list (random filters, page 1–5)': filteredList,
    'cultivar list (species= or page 1–200)': cultivarList,
    'type-ahead search (5,000 queries)': search,
    'mixed (50 % slug, 20 % search, 20 % lists, 10 % cultivars)': mixed,
  };
}
