/**
 * Uuids kept as their 16 bytes in one buffer: an in-memory index of many records holds their ids
 * in a sixth of the memory that strings take (a 36-character string is about 56 bytes on the heap
 * plus its 8-byte slot), and writes out as text only the few ids a request answers with.
 *
 * The text is written byte by byte into a buffer and read out as one string: a search turns a few
 * dozen ids into text, and building each from a hex string's slices made seven strings per id.
 */

/** Writes `id` (canonical text form) as record `at`'s 16 bytes of `into`. */
export function uuidBytes(id: string, into: Buffer, at: number): void {
  into.write(id.replaceAll('-', ''), at * 16, 16, 'hex');
}

/**
 * Uuids collected one after the other while an index is built, in a buffer grown by doubling;
 * `bytes()` is a copy of exactly their bytes, so the room grown beyond them is not kept.
 */
export class UuidList {
  #bytes: Buffer;
  length = 0;

  constructor(expected = 1024) {
    this.#bytes = Buffer.alloc(16 * Math.max(1, expected));
  }

  push(id: string): void {
    if (16 * (this.length + 1) > this.#bytes.length) {
      const grown = Buffer.alloc(this.#bytes.length * 2);
      this.#bytes.copy(grown);
      this.#bytes = grown;
    }
    uuidBytes(id, this.#bytes, this.length++);
  }

  bytes(): Buffer {
    return Buffer.from(this.#bytes.subarray(0, 16 * this.length));
  }
}

const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** After which of the 16 bytes the canonical form has a dash. */
const DASH_AFTER = [false, false, false, true, false, true, false, true, false, true];
const TEXT_LENGTH = 36;
let scratch = Buffer.allocUnsafe(TEXT_LENGTH * 64);

/** Writes record `at`'s uuid as text into `out` from `offset`; the offset after it. */
function writeUuid(ids: Buffer, at: number, out: Buffer, offset: number): number {
  let o = offset;
  for (let i = 0; i < 16; i++) {
    const byte = ids[at * 16 + i] as number;
    out[o++] = HEX[byte >> 4] as number;
    out[o++] = HEX[byte & 15] as number;
    if (DASH_AFTER[i]) out[o++] = 0x2d;
  }
  return o;
}

/** Record `at`'s uuid in canonical text form (lower-case hex, as PostgreSQL writes it). */
export function uuidAt(ids: Buffer, at: number): string {
  writeUuid(ids, at, scratch, 0);
  return scratch.toString('latin1', 0, TEXT_LENGTH);
}

/**
 * The records at `ats` as a PostgreSQL array literal of uuids (`{…,…}`, as `arrayLiteral` writes
 * a list of texts), made from the bytes without a string per id.
 */
export function uuidArrayText(ids: Buffer, ats: ArrayLike<number>): string {
  const length = 2 + ats.length * (TEXT_LENGTH + 1);
  if (scratch.length < length) scratch = Buffer.allocUnsafe(length * 2);
  let o = 0;
  scratch[o++] = 0x7b;
  for (let k = 0; k < ats.length; k++) {
    if (k > 0) scratch[o++] = 0x2c;
    o = writeUuid(ids, ats[k] as number, scratch, o);
  }
  scratch[o++] = 0x7d;
  return scratch.toString('latin1', 0, o);
}

/** Whether record `at`'s uuid is `id` in canonical text form (lower-case hex), without making a string. */
export function uuidIs(ids: Buffer, at: number, id: string): boolean {
  if (id.length !== TEXT_LENGTH) return false;
  let c = 0;
  for (let i = 0; i < 16; i++) {
    const byte = ids[at * 16 + i] as number;
    if (id.charCodeAt(c) !== HEX[byte >> 4] || id.charCodeAt(c + 1) !== HEX[byte & 15]) return false;
    c += 2;
    if (DASH_AFTER[i] && id.charCodeAt(c++) !== 0x2d) return false;
  }
  return true;
}
