import { type Static, Type } from 'typebox';
import { Nullable } from './types.js';

/** Facets the in-memory list index counts too, by the filter parameter each one feeds. */
export const INDEXED_FACETS = [
  'plant_layer',
  'family',
  'native_status',
  'drought_tolerance',
  'nitrogen_fixer',
] as const;
export type IndexedFacet = (typeof INDEXED_FACETS)[number];
/** The planner fields' facets, counted by the database alone. `light` and `edible_part` count list items. */
export const PLANNER_FACETS = ['light', 'life_cycle', 'edible_part'] as const;
/** Facets the species list can count, by the filter parameter each one feeds. */
export const FACETS = [...INDEXED_FACETS, ...PLANNER_FACETS] as const;
export type Facet = (typeof FACETS)[number];

export const FacetsParam = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    `Comma-separated facet names (${FACETS.join(', ')}): adds \`facets\` to the page with counts by value ` +
    'over the whole filtered set. An unknown name is a 400.',
});

const count = Type.Integer({ minimum: 1 });
const TextCount = Type.Object({ value: Nullable(Type.String()), count });
const BoolCount = Type.Object({ value: Nullable(Type.Boolean()), count });

export const FacetCountsSchema = Type.Object(
  {
    plant_layer: Type.Optional(Type.Array(TextCount)),
    family: Type.Optional(Type.Array(TextCount, { description: 'Values are family slugs.' })),
    native_status: Type.Optional(Type.Array(TextCount)),
    drought_tolerance: Type.Optional(Type.Array(TextCount)),
    nitrogen_fixer: Type.Optional(Type.Array(BoolCount)),
    light: Type.Optional(
      Type.Array(TextCount, { description: 'A species counts once for each light it lists.' }),
    ),
    life_cycle: Type.Optional(Type.Array(TextCount)),
    edible_part: Type.Optional(
      Type.Array(TextCount, {
        description: 'A species counts once for each edible part it lists; one with an empty list in none.',
      }),
    ),
  },
  {
    description:
      'For each facet asked for: one entry per value present in the filtered set (null: unknown), so the ' +
      "counts of a facet add up to the page's `total`, except for the list facets `light` and `edible_part`, " +
      'where a species counts for each value its list holds. Ordered by count, highest first, then by value.',
  },
);
export type FacetCounts = Static<typeof FacetCountsSchema>;
