/**
 * Builds the tsquery for a user's search text without ever handing the raw text to the tsquery
 * parser: the text is split on whitespace, each term is reduced to runs of letters and digits
 * (so quotes and `&|!():*` cannot reach the parser), and every run must match as a prefix.
 * Folding (case, accents, umlauts) happens in SQL with the same plant_fold() the index uses.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Page, PageRequest } from '../../db/catalogue-repository.js';

/** The most terms a search reads of its text; the index's per-word term masks are 16 bits wide. */
export const MAX_LEXEMES = 16;

/** The runs of letters and digits in a user's search text (at most MAX_LEXEMES). */
export function searchLexemes(text: string): string[] {
  return text
    .split(/\s+/)
    .flatMap((term) => term.match(/[\p{L}\p{N}]+/gu) ?? [])
    .slice(0, MAX_LEXEMES);
}

/** `['toma', 'sola']` → `'toma':* & 'sola':*` */
export function tsqueryOf(lexemes: string[]): string {
  return lexemes.map((lexeme) => `'${lexeme}':*`).join(' & ');
}

/**
 * The query as typed into a search box: the terms before the last are finished words and match
 * whole words; the last is still being typed and matches as a prefix once it has `minPrefix`
 * characters. `(['rote', 'fru'], 4)` → `'rote' & 'fru'`; `(['rote', 'frucht'], 4)` →
 * `'rote' & 'frucht':*`.
 */
export function typedQueryOf(lexemes: string[], minPrefix: number): string {
  return lexemes
    .map((lexeme, i) =>
      i === lexemes.length - 1 && lexeme.length >= minPrefix ? `'${lexeme}':*` : `'${lexeme}'`,
    )
    .join(' & ');
}

/** `"toma sola"` → `'toma':* & 'sola':*`; null when the text holds nothing searchable. */
export function prefixQuery(text: string): string | null {
  const lexemes = searchLexemes(text);
  return lexemes.length === 0 ? null : tsqueryOf(lexemes);
}

/**
 * Runs a paginated list with an optional \`search\` (lists use the same full-text search
 * as /api/v1/search); a \`search\` with nothing searchable in it gives an empty page.
 */
export function withSearch<T>(
  q: { search?: string | undefined } & PageRequest,
  run: (tsquery: string | null) => Promise<Page<T>>,
): Promise<Page<T>> {
  if (q.search === undefined) return run(null);
  const query = prefixQuery(q.search);
  if (query === null) return Promise.resolve({ data: [], total: 0, page: q.page, per_page: q.per_page });
  return run(query);
}

const tsquery = (query: string) => sql`to_tsquery('simple', plant_fold(${query}))`;

export function matches(vector: PgColumn, query: string): SQL {
  return sql`${vector} @@ ${tsquery(query)}`;
}

export function rankBy(vector: PgColumn, query: string): SQL<number> {
  return sql<number>`ts_rank(${vector}, ${tsquery(query)})`;
}
