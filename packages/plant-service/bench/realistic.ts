/**
 * Traffic for the benchmark, in two shapes, from seeded generators (two runs send the same
 * sequence):
 * - uniform: a new URL for every request drawn uniformly over the whole synthetic dataset, the
 *   way crawlers and a filter panel do; type-ahead texts from 5,000 prefixes of species' names;
 * - skewed: species and search texts drawn Zipf-like (s = 1) over a popularity order in which the
 *   species with real names (the starter dataset's) come first, as a reference site's traffic
 *   goes to a few hundred popular plants; search texts are prefixes of those species' names.
 */
import { NATIVE_STATUSES, PLANT_LAYERS, TOLERANCE_LEVELS } from '../src/schema/vocabularies.js';
import { type makeDataset, prng } from './generate.js';

type Dataset = ReturnType<typeof makeDataset>;
export type NextPath = () => string;

/** The number of distinct search texts a type-ahead run draws from. */
export const SEARCH_QUERIES = 5_000;

/** Zipf's exponent of the skewed shape. */
export const ZIPF_S = 1;

/** A sampler of ranks 0..n-1 with P(r) ∝ 1 / (r + 1)^s. */
export function zipf(n: number, s: number, rnd: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    sum += 1 / (r + 1) ** s;
    cumulative[r] = sum;
  }
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function skewedScenarios(data: Dataset, seed = 11) {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)] as T;
  const rank = zipf(data.speciesRows.length, ZIPF_S, rnd);
  const popular = () => data.speciesRows[rank()]!;
  const bySlug: NextPath = () => `/api/v1/species/${popular().slug}`;
  const prefix = (word: string) => word.slice(0, Math.min(word.length, 3 + int(6)));
  const search: NextPath = () => {
    const s = popular();
    const words = [
      ...s.name_scientific.split(' '),
      ...s.name_en.split(' '),
      ...s.name_de.split(/[\s-]+/),
    ].filter((w) => w.length >= 3);
    const first = pick(words);
    const terms = [prefix(first)];
    const others = words.filter((w) => w !== first);
    if (rnd() < 0.3 && others.length > 0) terms.push(prefix(pick(others)));
    return `/api/v1/search?q=${encodeURIComponent(terms.join(' '))}`;
  };
  const uniform = realisticScenarios(data, seed + 1);
  const lists = uniform['filtered species list (random filters, page 1–5)'];
  const mixed: NextPath = () => {
    const r = rnd();
    if (r < 0.6) return bySlug();
    if (r < 0.85) return search();
    return lists();
  };
  return {
    'skewed: species by slug (Zipf)': bySlug,
    'skewed: type-ahead search (Zipf, real names)': search,
    'skewed: mixed (60 % slug, 25 % search, 15 % lists)': mixed,
  };
}

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
  const distinctTexts = Math.min(SEARCH_QUERIES, data.speciesRows.length);
  while (queries.size < distinctTexts) {
    const s = pick(data.speciesRows);
    const words = [...s.name_scientific.split(' '), ...s.name_en.split(' '), s.name_de].filter(
      (w) => w.length > 0,
    );
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
