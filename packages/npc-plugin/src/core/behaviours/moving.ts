import type { Position } from '../game.js';
import { distance, round, roundPosition } from '../geometry.js';
import type { Behaviour } from '../state-machine.js';

export interface MoveParams {
  target: Position;
  /** How close counts as arrived, in blocks. */
  range: number;
  timeoutMs: number;
}

/** `POST /move {x, y, z}`: walk there with pathfinding; progress is the straight-line distance left. */
export const moving: Behaviour<MoveParams> = {
  state: 'moving',
  kind: 'move',
  timeoutMs: (params) => params.timeoutMs,
  describe: (params) => ({ position: roundPosition(params.target), range: params.range }),
  async run(params, { game, signal, progress }) {
    const initial = distance(game.self().position, params.target);
    const report = (left: number) =>
      progress({
        distance_remaining: round(left),
        initial_distance: round(initial),
        fraction:
          initial <= params.range
            ? 1
            : round(Math.min(1, Math.max(0, (initial - left) / (initial - params.range)))),
      });
    report(initial);
    await game.moveTo(params.target, params.range, { signal, onProgress: report });
    if (signal.aborted) return;
    // Arrival is judged by the pathfinder on block cells, so the straight-line rest may exceed range.
    progress({
      distance_remaining: round(distance(game.self().position, params.target)),
      initial_distance: round(initial),
      fraction: 1,
    });
  },
};
