/**
 * Builds the tsquery for a user's search text without ever handing the raw text to the tsquery
 * parser: the text is split on whitespace, each term is reduced to runs of letters and digits
 * (so quotes and `&|!():*` cannot reach the parser), and every run must match as a prefix.
 * Folding (case, accents, umlauts) happens in SQL with the same plant_fold() the index uses.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

const MAX_LEXEMES = 16;

/** `"toma sola"` → `'toma':* & 'sola':*`; null when the text holds nothing searchable. */
export function prefixQuery(text: string): string | null {
  const lexemes = text
    .split(/\s+/)
    .flatMap((term) => term.match(/[\p{L}\p{N}]+/gu) ?? [])
    .slice(0, MAX_LEXEMES);
  if (lexemes.length === 0) return null;
  return lexemes.map((lexeme) => `'${lexeme}':*`).join(' & ');
}

const tsquery = (query: string) => sql`to_tsquery('simple', plant_fold(${query}))`;

export function matches(vector: PgColumn, query: string): SQL {
  return sql`${vector} @@ ${tsquery(query)}`;
}

export function rankBy(vector: PgColumn, query: string): SQL<number> {
  return sql<number>`ts_rank(${vector}, ${tsquery(query)})`;
}
