/**
 * The planner's reads as the benchmarks send them: seeded requests drawn from the whole synthetic
 * dataset (zones 3–9 whole or half, random layers, families, species, months and weeks), so even
 * with the response cache on most of them are misses. Seeded, so every run sends the same ones.
 */
import { NATIVE_STATUSES, PLANT_LAYERS } from '../src/schema/vocabularies.js';
import { type makeDataset, prng, SIZES } from './generate.js';

type Dataset = ReturnType<typeof makeDataset>;

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Requests per scenario. */
export const PLANNER_REQUESTS = 5_000;

export function plannerScenarios(data: Dataset, seed = 7): Record<string, Request[]> {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
  const maybe = (p: number, text: string) => (rnd() < p ? text : '');
  const zone = () => `${3 + Math.floor(rnd() * 7)}${pick(['', 'a', 'b'])}`;
  const N = PLANNER_REQUESTS;
  const get = (p: string): Request => ({ method: 'GET', path: p });

  return {
    'species list, hardiness zone': Array.from({ length: N }, () =>
      get(
        `/api/v1/species?hardiness_zone=${zone()}${maybe(0.5, `&plant_layer=${pick(PLANT_LAYERS)}`)}` +
          `${maybe(0.3, '&nitrogen_fixer=true')}${maybe(0.3, `&family=${pick(data.familyRows).slug}`)}` +
          `&page=${1 + Math.floor(rnd() * 3)}`,
      ),
    ),
    'species list with facets': Array.from({ length: N }, () =>
      get(
        `/api/v1/species?family=${pick(data.familyRows).slug}${maybe(0.5, `&hardiness_zone=${zone()}`)}` +
          `${maybe(0.3, `&plant_layer=${pick(PLANT_LAYERS)}`)}` +
          '&facets=plant_layer,family,native_status,drought_tolerance,nitrogen_fixer',
      ),
    ),
    'guild around a species': Array.from({ length: N }, () =>
      get(
        `/api/v1/species/${pick(data.speciesRows).slug}/guild?limit=5${maybe(0.5, `&hardiness_zone=${zone()}`)}` +
          `${maybe(0.2, `&native_status=${pick(NATIVE_STATUSES)}`)}`,
      ),
    ),
    'guild check (POST, 2–12 species)': Array.from({ length: N }, () => {
      // A planting around one species: some of its companions' neighbourhood, some at random.
      const first = Math.floor(rnd() * SIZES.species);
      const size = 2 + Math.floor(rnd() * 11);
      const species = Array.from({ length: size }, (_, i) =>
        i % 2 === 0 ? data.speciesRows[(first + i) % SIZES.species]!.slug : pick(data.speciesRows).slug,
      );
      return {
        method: 'POST',
        path: '/api/v1/guilds/check',
        body: JSON.stringify({ species, ...(rnd() < 0.5 ? { hardiness_zone: zone() } : {}) }),
      };
    }),
    'planting calendar': Array.from({ length: N }, () => {
      const when = rnd() < 0.5 ? `month=${1 + Math.floor(rnd() * 12)}` : `week=${1 + Math.floor(rnd() * 52)}`;
      const filters =
        rnd() < 0.7
          ? `&species=${pick(data.speciesRows).slug}`
          : maybe(0.5, `&activity=${pick(['direct_sowing', 'harvesting', 'indoor_sowing'])}`) +
            `&page=${1 + Math.floor(rnd() * 5)}`;
      return get(`/api/v1/calendar?${when}&year=2026${filters}`);
    }),
  };
}
