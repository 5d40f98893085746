import { SlidingWindow } from '../shared/sliding-window.js';

/**
 * Failed-login rate limit, by address and username. After `perName` failures for one username from
 * one address within the window, that username gets 429 from that address (even with the right
 * password, so guessing stays slow) while other accounts behind the same address still log in. After
 * `perAddress` failures from one address, whatever the usernames, every authenticated request from it
 * gets 429: a burst against many names is throttled too.
 */
export class LoginThrottle {
  readonly #byName: SlidingWindow;
  readonly #byAddress: SlidingWindow;

  constructor(perName: number, perAddress: number, windowMs = 60_000) {
    this.#byName = new SlidingWindow(perName, windowMs);
    this.#byAddress = new SlidingWindow(perAddress, windowMs);
  }

  /** Seconds this username must wait from this address, or 0. */
  blockedFor(address: string, username: string): number {
    const wait = Math.max(
      this.#byName.retryAfterMs(key(address, username)),
      this.#byAddress.retryAfterMs(address),
    );
    return Math.ceil(wait / 1000);
  }

  failed(address: string, username: string): void {
    this.#byName.hit(key(address, username));
    this.#byAddress.hit(address);
  }
}

/** Usernames are matched exactly by the accounts file, so they are keyed exactly here too. */
function key(address: string, username: string): string {
  return `${address}\u0000${username}`;
}
