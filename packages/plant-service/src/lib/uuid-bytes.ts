/**
 * Uuids kept as their 16 bytes in one buffer: an in-memory index of many records holds their ids
 * in a sixth of the memory that strings take (a 36-character string is about 56 bytes on the heap
 * plus its 8-byte slot), and writes out as text only the few ids a request answers with.
 */

/** Writes `id` (canonical text form) as record `at`'s 16 bytes of `into`. */
export function uuidBytes(id: string, into: Buffer, at: number): void {
  into.write(id.replaceAll('-', ''), at * 16, 16, 'hex');
}

/** Record `at`'s uuid in canonical text form (lower-case hex, as PostgreSQL writes it). */
export function uuidAt(ids: Buffer, at: number): string {
  const hex = ids.toString('hex', at * 16, at * 16 + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
