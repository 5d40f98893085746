/**
 * Admission by recent frequency, for a size-bounded cache that keeps things read again (responses
 * by URL). A cache that keeps whatever was read last: under traffic whose
 * keys seldom repeat (a filter panel, a crawler), every new entry pushes out one that was read
 * more often, so the cache costs more than it saves.
 *
 * The rule (TinyLFU's, with exact counts for recent keys instead of a sketch): while the cache has
 * room, anything is admitted; once it is full, a candidate is admitted only if its key was requested
 * more often lately than every entry it would push out. Entries the caller calls stale (their data
 * changed) leave for nothing. Counts are kept for the last `keys` distinct keys and saturate at 15;
 * they are all halved every ten requests per entry the cache holds (TinyLFU's sample), so what was
 * popular a while ago gives way to what is popular now: a cache of 300 list pages frozen with
 * pages requested 15 times each took minutes to take anything else when counts aged per 160,000
 * requests, and takes seconds now.
 */
import { LRUCache } from 'lru-cache';

const MAX_COUNT = 15;

interface Count {
  n: number;
  /** The aging period the count was last brought up to date in. */
  period: number;
}

/** Requests per entry of the cache between two halvings of every count. */
const SAMPLE_PER_ENTRY = 10;
/** The fewest requests between two halvings, however few entries the cache holds. */
const MIN_SAMPLE = 1_000;

export class FrequencyAdmission<K extends {}> {
  readonly #counts: LRUCache<K, Count>;
  readonly #entries: () => number;
  #period = 0;
  #touches = 0;

  /** `entries` tells how many entries the cache holds now: the counts age by it. */
  constructor(keys: number, entries: () => number) {
    this.#counts = new LRUCache<K, Count>({ max: keys });
    this.#entries = entries;
  }

  /** Counts one request for `key`. */
  touch(key: K): void {
    const count = this.#counts.get(key);
    if (count) {
      count.n = Math.min(MAX_COUNT, this.#aged(count) + 1);
      count.period = this.#period;
    } else {
      this.#counts.set(key, { n: 1, period: this.#period });
    }
    if (++this.#touches >= Math.max(MIN_SAMPLE, SAMPLE_PER_ENTRY * this.#entries())) {
      this.#touches = 0;
      this.#period++;
    }
  }

  /** Requests counted for `key` lately (halved once for every aging period since). */
  count(key: K): number {
    const count = this.#counts.peek(key);
    return count ? this.#aged(count) : 0;
  }

  /**
   * Whether `key` may go in when `victims` would leave for it (none while the cache has room):
   * every one of them is stale or was requested fewer times lately than `key`.
   */
  admits(key: K, victims: Iterable<{ key: K; stale: boolean }>): boolean {
    const wanted = this.count(key);
    for (const victim of victims) if (!victim.stale && this.count(victim.key) >= wanted) return false;
    return true;
  }

  #aged(count: Count): number {
    const periods = this.#period - count.period;
    return periods >= 4 ? 0 : count.n >> periods;
  }
}
