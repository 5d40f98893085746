import { SlidingWindow } from '../shared/sliding-window.js';

/**
 * Failed-login rate limit (issue 6: "Failed logins are rate-limited"): after `limit` failures from
 * one address within a minute, every authenticated request from it gets 429 until the window
 * passes, even with the right password, so guessing stays slow.
 */
export class LoginThrottle {
  readonly #failures: SlidingWindow;

  constructor(limit: number, windowMs = 60_000) {
    this.#failures = new SlidingWindow(limit, windowMs);
  }

  /** Seconds the address must wait, or 0. */
  blockedFor(address: string): number {
    return Math.ceil(this.#failures.retryAfterMs(address) / 1000);
  }

  failed(address: string): void {
    this.#failures.hit(address);
  }
}
