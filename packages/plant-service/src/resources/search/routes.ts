import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Database } from '../../db/client.js';
import { errors } from '../../http/route-schemas.js';
import { Ref } from '../../schema/types.js';
import { searchAll } from './repository.js';
import { SearchQuery, SearchResultSchema } from './schemas.js';
import { prefixQuery } from './tsquery.js';

export const searchRoutes =
  ({ db }: Database): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { cache: true },
        schema: {
          operationId: 'search',
          tags: ['search'],
          summary: 'Full-text search across families, species and cultivars',
          description:
            'Scientific, English and German names and the descriptions are searched. Every whitespace-separated ' +
            'term must match (AND), each as a word prefix ("toma sola" finds Solanum lycopersicum). Case, accents ' +
            'and umlauts are folded ("mohre" and "moehre" find "Möhre"). Punctuation is ignored, so quotes and ' +
            '`&|!():*` are safe. Names weigh more than descriptions. A `q` with no letters or digits gives an ' +
            'empty list.',
          querystring: SearchQuery,
          response: { 200: Type.Array(Ref(SearchResultSchema)), ...errors(400) },
        },
      },
      async (request) => {
        const tsquery = prefixQuery(request.query.q);
        return tsquery === null ? [] : searchAll(db, tsquery, request.query.limit);
      },
    );
  };
