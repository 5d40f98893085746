import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from '../../schema/types.js';
import { ENTITY_TYPES } from '../../schema/vocabularies.js';

export const SearchResultSchema = Type.Object(
  {
    entity_type: Type.Unsafe<(typeof ENTITY_TYPES)[number]>({ type: 'string', enum: [...ENTITY_TYPES] }),
    id: Uuid,
    slug: Type.String(),
    name: Type.String({ description: 'Scientific name (family, species) or cultivar name.' }),
    description: Nullable(Type.String()),
    rank: Type.Number({ description: 'Full-text relevance; higher is better.' }),
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
