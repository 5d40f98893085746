import type { Behaviour } from '../state-machine.js';

export interface FollowParams {
  player: string;
  /** The distance the NPC keeps, in blocks. */
  distance: number;
  timeoutMs: number;
}

/** `POST /move {follow}`: keep near a player until stopped, pre-empted or the player is lost. */
export const following: Behaviour<FollowParams> = {
  state: 'following',
  kind: 'follow',
  timeoutMs: (params) => params.timeoutMs,
  describe: (params) => ({ player: params.player, distance: params.distance }),
  run: (params, { game, signal }) => game.follow(params.player, params.distance, { signal }),
};
