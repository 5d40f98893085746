import type { Bot } from 'mineflayer';
import pathfinderModule from 'mineflayer-pathfinder';
import type { Entity } from 'prismarine-entity';
import { ActionError, type MoveOptions, type Position } from '../../core/game.js';
import { until } from './until.js';

const { goals } = pathfinderModule;

/** How often progress is reported while walking. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * Walks to within `range` blocks with mineflayer-pathfinder (issue 6). Resolves on arrival or when the
 * signal aborts (the caller reads the signal to tell which); rejects when no path exists or the
 * connection drops. Always clears the pathfinder goal on the way out.
 */
export async function moveTo(bot: Bot, target: Position, range: number, options: MoveOptions): Promise<void> {
  const goal = new goals.GoalNear(target.x, target.y, target.z, range);
  const progress = setInterval(() => {
    options.onProgress?.(bot.entity.position.distanceTo(goalVec(bot, target)));
  }, PROGRESS_INTERVAL_MS);
  try {
    if (bot.entity.position.distanceTo(goalVec(bot, target)) <= range) return;
    bot.pathfinder.setGoal(goal);
    await until<void>(bot, options.signal, (resolve, reject, on) => {
      on('goal_reached', () => resolve());
      on('path_update', (result: { status: string }) => {
        if (result.status === 'noPath') reject(new ActionError('no_path', 'no path to the target'));
      });
      on('end', () => reject(new ActionError('disconnected', 'disconnected while walking')));
    });
  } finally {
    clearInterval(progress);
    stopWalking(bot);
  }
}

/**
 * Keeps within `distance` blocks of a player until the signal aborts; rejects with target_lost when
 * the player leaves or goes out of view.
 */
export async function follow(
  bot: Bot,
  username: string,
  distance: number,
  signal: AbortSignal,
): Promise<void> {
  const entity = bot.players[username]?.entity;
  if (!entity) throw new ActionError('target_lost', `player ${username} is not in view`);
  bot.pathfinder.setGoal(new goals.GoalFollow(entity, distance), true);
  try {
    await until<void>(bot, signal, (_resolve, reject, on) => {
      on('entityGone', (gone: Entity) => {
        if (gone.id === entity.id)
          reject(new ActionError('target_lost', `player ${username} went out of view`));
      });
      on('end', () => reject(new ActionError('disconnected', 'disconnected while following')));
    });
  } finally {
    stopWalking(bot);
  }
}

export function stopWalking(bot: Bot): void {
  bot.pathfinder?.setGoal(null);
  bot.clearControlStates();
}

function goalVec(bot: Bot, target: Position) {
  return bot.entity.position.clone().set(target.x, target.y, target.z);
}
