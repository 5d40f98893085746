/**
 * The NPC's chat rate, for all its lines together (public lines and whispers alike).
 *
 * A vanilla server adds 20 to a player's spam counter for each chat line or command and takes 1 off
 * every tick (20 ticks a second); a non-operator whose counter passes 200 is kicked. So a client may
 * keep up one line a second and burst ten at most. The governor is a token bucket: BURST lines at
 * once, then one every INTERVAL_MS. Over any stretch of time the NPC then sends at most
 * BURST + elapsed / INTERVAL_MS lines while the counter loses 20 a second, so on a server at full
 * speed the counter never passes 20 × BURST = 80, 40 % of the threshold. The margin is for a
 * lagging server (ticks are what lower the counter: the sustained rate still holds at 14 ticks a
 * second), the NPC's own commands (the `/tp` of `POST /spawn`) and lines the network bunches up.
 */
export const CHAT_BURST = 4;
/** One line per 1.5 s sustained: the counter gains 20 per line and loses 30 in between. */
export const CHAT_INTERVAL_MS = 1500;
/** Lines waiting to be said beyond this are dropped (about 36 s of talking at the sustained rate). */
export const CHAT_BACKLOG = 24;

export interface ChatRate {
  burst: number;
  intervalMs: number;
}

export const DEFAULT_CHAT_RATE: ChatRate = { burst: CHAT_BURST, intervalMs: CHAT_INTERVAL_MS };

/** A token bucket on an explicit clock (epoch ms), so it can be checked against simulated time. */
export class ChatGovernor {
  #tokens: number;
  #updatedAt: number;

  constructor(
    private readonly rate: ChatRate = DEFAULT_CHAT_RATE,
    now = Date.now(),
  ) {
    this.#tokens = rate.burst;
    this.#updatedAt = now;
  }

  /** How long to wait from `now` before the next line may go (0 = at once). */
  delay(now: number): number {
    this.#refill(now);
    return this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) * this.rate.intervalMs);
  }

  /** Records a line sent at `now`; call only once `delay(now)` is 0. */
  take(now: number): void {
    this.#refill(now);
    this.#tokens = Math.max(0, this.#tokens - 1);
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.rate.burst, this.#tokens + elapsed / this.rate.intervalMs);
    this.#updatedAt = now;
  }
}
