import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../http/route-schemas.js';
import { Ref } from '../../schema/types.js';
import { SearchQuery, SearchResultSchema } from './schemas.js';
import { MIN_WORD_PART, SEARCH_BOUNDS, type SearchService } from './service.js';

const {
  words: NAME_WORDS,
  nameCandidates: NAME_CANDIDATES,
  describedCandidates: DESCRIPTION_CANDIDATES,
} = SEARCH_BOUNDS;

// Digits grouped by hand: Number#toLocaleString loads ICU's locale data, about 7 MB of resident
// memory that nothing else the API serves needs.
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

export const searchRoutes =
  (service: SearchService): FastifyPluginAsyncTypebox =>
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
            'Searches the scientific, English, German and further names (`other_names`) and the descriptions ' +
            'of families, species and cultivars. Case, accents and umlauts are folded ("mohre" and "moehre" ' +
            'find "Möhre"); punctuation is ignored, so quotes and `&|!():*` are safe; a `q` with no letters or ' +
            'digits gives an empty list. Results come in ranked groups, each filling what the groups before ' +
            'left of `limit`:\n\n' +
            '1. **Names, word prefixes** (rank 3–4): every whitespace-separated term starts a word of a name ' +
            '(AND; "toma sola" finds Solanum lycopersicum, "Karotte" finds Daucus carota when it is one of its ' +
            `\`other_names\`). Of all name words, the first ${thousands(NAME_WORDS)} words, in alphabetical ` +
            '(byte) order, that the longest term starts are checked against all terms, so a very common ' +
            'prefix answers as fast as a rare one; type more letters to narrow it. A record whose names match ' +
            'only beyond those words is not found by this group, nor by the next two, which leave out ' +
            'every name match.\n' +
            `2. **Word parts of names** (rank 2–3): every term has ${MIN_WORD_PART} or more characters and occurs inside a ` +
            'name, e.g. in a German compound ("apfel" finds "Kulturapfel").\n' +
            '3. **Descriptions** (rank 1–2): the text as typed into a search box: the terms before the last ' +
            'are finished words and match whole words of a name or a description; the last term matches ' +
            `as a word prefix once it has ${MIN_WORD_PART} or more characters, before that as a whole word ("red sal" ` +
            'does not yet search descriptions for "salad", "red sala" does).\n' +
            '4. **Similar names** (rank below 1), only when groups 1–3 found nothing: names to which every ' +
            'term is similar (trigram word similarity of at least 0.5), so typos such as "tomatoe" or ' +
            '"lavendel" still find Tomato and Lavender. As in every group, all terms must match: a record ' +
            'similar to only some of them is not found.\n\n' +
            'Within a group, better relevance (more and denser matches) ranks first, then the name, then the id. ' +
            `Groups 2 and 3 rank at most ${NAME_CANDIDATES} name matches (${DESCRIPTION_CANDIDATES} description matches) per entity type; ` +
            'which ones, when there are more, is not specified (nor, in group 1, which records of the last of ' +
            'its words are checked). ' +
            "Cultivars carry their species' slug " +
            'and scientific name.',
          querystring: SearchQuery,
          response: { 200: Type.Array(Ref(SearchResultSchema)), ...errors(400) },
        },
      },
      (request) => service.search(request.query.q, request.query.limit),
    );
  };
