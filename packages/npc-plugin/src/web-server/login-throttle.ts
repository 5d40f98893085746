import { SlidingWindow } from '../shared/sliding-window.js';

export interface LoginLimits {
  /** Failures for one username from one address. */
  perName: number;
  /** Failures from one address, whatever the usernames. */
  perAddress: number;
  /** Failures for one username, whatever the addresses. */
  perAccount: number;
}

/**
 * Failed-login rate limit, in three buckets over a sliding window. After `perName` failures for one
 * username from one address, that username gets 429 from that address (even with the right password,
 * so guessing stays slow) while other accounts behind the same address still log in. After
 * `perAddress` failures from one address, whatever the usernames, every authenticated request from it
 * gets 429: a burst against many names is throttled too. After `perAccount` failures for one username,
 * whatever the addresses, that username gets 429 everywhere: guessing one account's password from
 * many addresses is as slow as from one. The address is the client's as the web server sees it
 * (`NPC_TRUST_PROXY` decides whether X-Forwarded-For counts), so operators behind one proxy do not
 * share a bucket.
 */
export class LoginThrottle {
  readonly #byName: SlidingWindow;
  readonly #byAddress: SlidingWindow;
  readonly #byAccount: SlidingWindow;

  constructor(limits: LoginLimits, windowMs = 60_000, now: () => number = Date.now) {
    this.#byName = new SlidingWindow(limits.perName, windowMs, 10_000, now);
    this.#byAddress = new SlidingWindow(limits.perAddress, windowMs, 10_000, now);
    this.#byAccount = new SlidingWindow(limits.perAccount, windowMs, 10_000, now);
  }

  /** Seconds this username must wait from this address, or 0. */
  blockedFor(address: string, username: string): number {
    const wait = Math.max(
      this.#byName.retryAfterMs(key(address, username)),
      this.#byAddress.retryAfterMs(address),
      this.#byAccount.retryAfterMs(username),
    );
    return Math.ceil(wait / 1000);
  }

  failed(address: string, username: string): void {
    this.#byName.hit(key(address, username));
    this.#byAddress.hit(address);
    this.#byAccount.hit(username);
  }
}

/** Usernames are matched exactly by the accounts file, so they are keyed exactly here too. */
function key(address: string, username: string): string {
  return `${address}\u0000${username}`;
}
