/**
 * Admission by recent frequency, for a size-bounded cache that keeps things read again (responses
 * by URL). A cache that keeps whatever was read last: under traffic whose
 * keys seldom repeat (a filter panel, a crawler), every new entry pushes out one that was read
 * more often, so the cache costs more than it saves.
 *
 * The rule (TinyLFU's): while the cache has room, anything is admitted; once it is full, a
 * candidate is admitted only if its key was requested more often lately than every entry it would
 * push out. Entries the caller calls stale (their data changed) leave for nothing. Counts saturate
 * at 15 and are all halved every ten requests per entry the cache holds (TinyLFU's sample), so what
 * was popular a while ago gives way to what is popular now: a cache of 300 list pages frozen with
 * pages requested 15 times each took minutes to take anything else when counts aged per 160,000
 * requests, and takes seconds now.
 *
 * Counts are kept as TinyLFU keeps them, in a count-min sketch: four rows of counters, a key
 * counted in one counter per row picked by its hash, its count the least of the four. Keys that
 * share a counter can only make a count too high, never too low. Exact counts per key (an LRU of
 * the last 16,384 URLs) made an object for every new URL and dropped one, garbage for the old
 * generation's collector on every request, and took 3 % of the service's time under reads by slug.
 */

const MAX_COUNT = 15;
const ROWS = 4;

/** Requests per entry of the cache between two halvings of every count. */
const SAMPLE_PER_ENTRY = 10;
/** The fewest requests between two halvings, however few entries the cache holds. */
const MIN_SAMPLE = 1_000;

/** FNV-1a of a string's UTF-16 code units, 32 bits. */
function fnv1a(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finalizer: a second, independent-enough hash of the first. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class FrequencyAdmission {
  /** Row r's counters are counters[r * width .. (r + 1) * width - 1]. */
  readonly #counters: Uint8Array;
  readonly #width: number;
  readonly #entries: () => number;
  /** The counters of the key last looked at. */
  readonly #at = new Int32Array(ROWS);
  #touches = 0;

  /**
   * `keys` is about how many distinct keys are counted at once (counters per row, rounded up to a
   * power of two); `entries` tells how many entries the cache holds now: the counts age by it.
   */
  constructor(keys: number, entries: () => number) {
    this.#width = 2 ** Math.ceil(Math.log2(Math.max(16, keys)));
    this.#counters = new Uint8Array(this.#width * ROWS);
    this.#entries = entries;
  }

  /** Counts one request for `key`. */
  touch(key: string): void {
    const least = this.#look(key);
    // Only the counters at the least are raised (conservative update): the others already count
    // other keys too, and raising them would only make those keys' counts worse.
    if (least < MAX_COUNT)
      for (const at of this.#at) if (this.#counters[at] === least) this.#counters[at] = least + 1;
    if (++this.#touches >= Math.max(MIN_SAMPLE, SAMPLE_PER_ENTRY * this.#entries())) {
      this.#touches = 0;
      for (let i = 0; i < this.#counters.length; i++) this.#counters[i] = (this.#counters[i] as number) >> 1;
    }
  }

  /** Requests counted for `key` lately (at least as many as there were, halved as counts age). */
  count(key: string): number {
    return this.#look(key);
  }

  /**
   * Whether `key` may go in when `victims` would leave for it (none while the cache has room):
   * every one of them is stale or was requested fewer times lately than `key`.
   */
  admits(key: string, victims: Iterable<{ key: string; stale: boolean }>): boolean {
    // Counted only when a fresh victim asks for it: most bodies push out nothing.
    let wanted: number | undefined;
    for (const victim of victims) {
      if (victim.stale) continue;
      wanted ??= this.count(key);
      if (this.count(victim.key) >= wanted) return false;
    }
    return true;
  }

  /** Sets #at to `key`'s counters and returns the least of them. */
  #look(key: string): number {
    const h1 = fnv1a(key);
    const h2 = mix(h1) | 1;
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) {
      const at = row * this.#width + ((h1 + Math.imul(row, h2)) & (this.#width - 1));
      this.#at[row] = at;
      least = Math.min(least, this.#counters[at] as number);
    }
    return least;
  }
}
