/**
 * Which statement texts run as named prepared statements, on either backend: a text sent a second
 * time outside a transaction, so each connection parses and plans it once (PostgreSQL moves to a
 * generic plan after a few runs when that costs no more) instead of on every request. The
 * parameters carry the values, so a text is a statement's shape: a filtered list with its set of
 * filters, a facet count, a page with or without its total. A text seen once is not prepared, so
 * one-off statements leave nothing behind, and at most `limit` texts ever are: the names live as
 * long as the connections, and server memory per connection stays bounded.
 */
import { LRUCache } from 'lru-cache';

/** Longer texts (bulk statements) are not worth remembering. */
const MAX_PREPARED_TEXT = 16_384;

/** The name `text` runs under, or undefined while it should run unprepared. */
export type StatementNames = (text: string) => string | undefined;

export function repeatedStatements(limit: number): StatementNames {
  // Texts sent once so far, the oldest forgotten first: a stream of one-off statements never
  // crowds out a shape that repeats.
  const seen = new LRUCache<string, true>({ max: Math.max(1, limit * 4) });
  const names = new Map<string, string>();
  return (text) => {
    if (text.length > MAX_PREPARED_TEXT) return undefined;
    let name = names.get(text);
    if (name === undefined && names.size < limit) {
      if (seen.has(text)) {
        seen.delete(text);
        name = `repeated_${names.size + 1}`;
        names.set(text, name);
      } else seen.set(text, true);
    }
    return name;
  };
}
