/**
 * Search in ranked groups, each filling what the groups before it left of `limit` (the rules in
 * the API description):
 *   1. every term a word prefix of a name;
 *   2. every term (of MIN_WORD_PART+ characters) inside a name, such as a part of a German
 *      compound ("apfel" in "Kulturapfel");
 *   3. the text as typed into a search box, in names or descriptions: the terms before the last as
 *      whole words, the last as a word prefix once it has MIN_WORD_PART+ characters;
 *   4. only when 1–3 found nothing, typo tolerance: names similar to every term.
 * Every group holds the AND rule: a record is found only if every term matches it; the groups
 * differ in how a term may match, never in whether each must.
 */
import type { Database } from '../../db/client.js';
import { byNamePrefix, laterGroups, type SearchBounds, similarNames } from './repository.js';
import type { SearchResult } from './schemas.js';
import { searchLexemes } from './tsquery.js';

/** Shorter terms are too unspecific to match inside words, or as description prefixes. */
export const MIN_WORD_PART = 4;

export const SEARCH_BOUNDS: SearchBounds = {
  words: 2_000,
  nameCandidates: 100,
  describedCandidates: 50,
  minWordPart: MIN_WORD_PART,
  typoThreshold: 0.5,
};

export function searchService({ db }: Database, bounds: SearchBounds = SEARCH_BOUNDS) {
  return {
    async search(text: string, limit: number): Promise<SearchResult[]> {
      const lexemes = searchLexemes(text);
      if (lexemes.length === 0) return [];
      // Names alone first: when they fill the page, the costlier groups never run. Each later
      // group leaves out what an earlier one finds, so a record appears once, in its best group.
      const byName = await byNamePrefix(db, lexemes, limit, bounds);
      if (byName.length === limit) return byName;
      const wordParts = lexemes.every((l) => l.length >= bounds.minWordPart);
      const later = await laterGroups(db, lexemes, wordParts, limit - byName.length, bounds);
      const found = [...byName, ...later];
      return found.length > 0 ? found : similarNames(db, lexemes, limit, bounds);
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
