/**
 * Exponential backoff with ±20 % jitter, so many clients retrying one server that came back do not
 * all knock again in the same instant.
 */
export interface Backoff {
  /** The delay before the first retry. */
  firstMs: number;
  /** No delay is longer than this, jitter included. */
  maxMs: number;
}

/**
 * The delay before retry number `attempt` (1 for the first): `firstMs` doubled per attempt, capped at
 * `maxMs`, then jittered by up to ±20 % while staying within [firstMs, maxMs].
 */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const { firstMs, maxMs } = backoff;
  const base = Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
  const jittered = base * (0.8 + 0.4 * random());
  return Math.round(Math.min(maxMs, Math.max(firstMs, jittered)));
}
