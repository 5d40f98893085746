import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from '../../schema/types.js';
import { ENTITY_TYPES } from '../../schema/vocabularies.js';

export const SearchResultSchema = Type.Object(
  {
    entity_type: Type.Unsafe<(typeof ENTITY_TYPES)[number]>({ type: 'string', enum: [...ENTITY_TYPES] }),
    id: Uuid,
    slug: Type.String(),
    name: Type.String({ description: 'Scientific name (family, species) or cultivar name.' }),
    name_en: Nullable(Type.String({ description: 'English name.' })),
    name_de: Nullable(Type.String({ description: 'German name.' })),
    description: Nullable(Type.String()),
    species_slug: Nullable(Type.String({ description: "Cultivars: their species' slug; null otherwise." })),
    species_name_scientific: Nullable(
      Type.String({ description: "Cultivars: their species' scientific name; null otherwise." }),
    ),
    rank: Type.Number({
      description:
        'Higher is better: 3–4 name prefix match, 2–3 word part of a name, 1–2 description match, ' +
        'below 1 similar name (typo fallback).',
    }),
  },
  { $id: 'SearchResult' },
);
export type SearchResult = Static<typeof SearchResultSchema>;

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'Search text; every whitespace-separated term must match as a word prefix.',
    }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;
