/**
 * Exponential backoff with ±20 % jitter, so a fleet of NPCs does not hammer a restarting server in
 * step. `attempt` starts at 1.
 */
export function backoffDelay(attempt: number, minMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, attempt - 1));
  const jitter = 1 + (random() * 0.4 - 0.2);
  return Math.round(Math.min(maxMs, Math.max(minMs, base * jitter)));
}
