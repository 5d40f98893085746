/**
 * Counts events per key within a sliding time window (used for the per-player reply limit and the
 * failed-login limit). Keys with no recent events are dropped, and at most `maxKeys` are kept so a
 * flood of new keys cannot grow memory without bound.
 */
export class SlidingWindow {
  readonly #events = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Events of `key` still inside the window. */
  count(key: string): number {
    return this.#recent(key).length;
  }

  /** True when `key` has used up its allowance. */
  exceeded(key: string): boolean {
    return this.count(key) >= this.limit;
  }

  /** Records one event. */
  hit(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.now());
    this.#events.delete(key);
    this.#events.set(key, recent);
    if (this.#events.size > this.maxKeys) {
      const oldest = this.#events.keys().next().value;
      if (oldest !== undefined) this.#events.delete(oldest);
    }
  }

  /** Records an event if allowed; returns whether it was. */
  tryHit(key: string): boolean {
    if (this.exceeded(key)) return false;
    this.hit(key);
    return true;
  }

  /** Milliseconds until `key` may act again (0 when it may now). */
  retryAfterMs(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit] ?? this.now();
    return Math.max(0, oldest + this.windowMs - this.now());
  }

  reset(key: string): void {
    this.#events.delete(key);
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const events = (this.#events.get(key) ?? []).filter((at) => at > cutoff);
    if (events.length === 0) this.#events.delete(key);
    else this.#events.set(key, events);
    return events;
  }
}
