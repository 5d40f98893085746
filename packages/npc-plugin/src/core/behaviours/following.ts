import type { Position } from '../game.js';
import { distance } from '../geometry.js';
import type { Behaviour } from '../state-machine.js';

export interface FollowParams {
  player: string;
  /** The distance the NPC keeps, in blocks. */
  distance: number;
  timeoutMs: number;
  /** Where following started and how far from there the NPC may go; null = no leash. */
  leash: { from: Position; radius: number } | null;
}

/** How often the leash is checked. */
const LEASH_CHECK_MS = 250;

/**
 * `POST /move {follow}` and the `follow_player` tool: keep near a player until stopped, pre-empted,
 * timed out or the player is lost; on a leash, also until the NPC is `radius` blocks from where it
 * started (a player cannot lead it across the world).
 */
export const following: Behaviour<FollowParams> = {
  state: 'following',
  kind: 'follow',
  timeoutMs: (params) => params.timeoutMs,
  describe: (params) => ({
    player: params.player,
    distance: params.distance,
    ...(params.leash ? { leash: params.leash.radius } : {}),
  }),
  async run(params, { game, signal }) {
    const leash = params.leash;
    if (!leash) return game.follow(params.player, params.distance, { signal });
    const inner = new AbortController();
    const forward = () => inner.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    let snapped = false;
    const check = setInterval(() => {
      if (!game.isConnected()) return;
      if (distance(game.self().position, leash.from) > leash.radius) {
        snapped = true;
        inner.abort();
      }
    }, LEASH_CHECK_MS);
    try {
      await game.follow(params.player, params.distance, { signal: inner.signal });
    } finally {
      clearInterval(check);
      signal.removeEventListener('abort', forward);
    }
    if (snapped)
      throw new Error(`left the leash: more than ${leash.radius} blocks from where following started`);
  },
};
