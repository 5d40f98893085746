/**
 * Conditional and range requests, shared by /img, the export and the response cache: If-None-Match (RFC 9110 §13.1.2),
 * Range and If-Range (RFC 9110 §14.2, §13.1.5). Only single byte ranges are served; a request
 * for several ranges gets the whole representation, which §14.2 allows.
 */

/** Whether an If-None-Match header matches `etag` (weak comparison, as §13.1.2 requires). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
}

export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * What to send for a Range header against a representation of `size` bytes. A malformed header
 * or one with several ranges is ignored (full response); an If-Range that does not match `etag`
 * (strong comparison, §13.1.5) also means the full response.
 */
export function decideRange(
  range: string | undefined,
  size: number,
  etag: string,
  ifRange?: string | undefined,
): RangeDecision {
  if (range === undefined) return { kind: 'full' };
  if (ifRange !== undefined && (ifRange.trim() !== etag || etag.startsWith('W/'))) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(range);
  if (!m) return { kind: 'full' };
  const [, first, last] = m as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // Suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
