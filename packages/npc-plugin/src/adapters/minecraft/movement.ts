import type { Bot } from 'mineflayer';
import pathfinderModule from 'mineflayer-pathfinder';
import type { Entity } from 'prismarine-entity';
import { ActionError, type MoveOptions, type Position } from '../../core/game.js';
import { until } from './until.js';

const { goals, Movements } = pathfinderModule;

/** The highest drop the pathfinder may take: three blocks is the most a fall does no damage. */
const MAX_DROP = 3;

/**
 * The pathfinder's moves for an NPC on someone else's world: it walks, climbs ladders, swims and
 * drops a little, and never changes a block to get somewhere. The library would otherwise dig
 * through walls, pillar up and bridge gaps with any dirt or cobblestone in the inventory (its
 * scaffolding list), and open gates. Parkour (sprint jumps over gaps) is off too: a missed jump
 * drops the NPC into whatever pit it tried to clear. Without those moves a goal across a gap is
 * reached the long way round, or is `no_path`. With `avoidItems`, cells holding a dropped item cost as
 * much as a long detour, so the NPC does not walk over what others dropped (it would pick it up).
 */
export function walkOnlyMovements(
  bot: Bot,
  options: { avoidItems: boolean },
): InstanceType<typeof Movements> {
  const movements = new Movements(bot);
  movements.canDig = false;
  movements.allow1by1towers = false;
  movements.scafoldingBlocks = [];
  movements.canOpenDoors = false;
  movements.allowParkour = false;
  movements.dontCreateFlow = true;
  movements.maxDropDown = MAX_DROP;
  if (options.avoidItems) movements.entitiesToAvoid.add('item');
  return movements;
}

/** How often progress is reported while walking. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * Walks to within `range` blocks with mineflayer-pathfinder. Resolves on arrival or when the
 * signal aborts (the caller reads the signal to tell which); rejects when no path exists or the
 * connection drops. Always clears the pathfinder goal on the way out.
 */
export async function moveTo(bot: Bot, target: Position, range: number, options: MoveOptions): Promise<void> {
  // The pathfinder judges arrival on block cells, so aim at the target's cell with one block less
  // slack than asked: the NPC then stands within `range` of the exact point.
  const cell = bot.entity.position
    .clone()
    .set(Math.floor(target.x), Math.floor(target.y), Math.floor(target.z));
  // A target inside a solid block means standing on top of it.
  if (bot.blockAt(cell)?.boundingBox === 'block') cell.y += 1;
  const goal = new goals.GoalNear(cell.x, cell.y, cell.z, Math.max(0, Math.floor(range) - 1));
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

/** Beyond this horizontal gap, or this height difference, following uses the pathfinder. */
const FOLLOW_PATH_GAP = 6;
const FOLLOW_PATH_HEIGHT = 1.5;
/** How long the NPC may press against a wall before it asks the pathfinder for a way round. */
const FOLLOW_STUCK_MS = 800;

/**
 * Keeps within `distance` blocks of a player until the signal aborts; rejects with target_lost when
 * the player leaves or goes out of view. On open ground the NPC steers straight at the player every
 * physics tick (the pathfinder's GoalFollow only re-plans after the player has moved `range` blocks,
 * so it trails by twice the distance); far away, on other heights, at an edge or when blocked, it
 * hands over to the pathfinder until it is close again.
 */
export async function follow(
  bot: Bot,
  username: string,
  distance: number,
  signal: AbortSignal,
): Promise<void> {
  const first = bot.players[username]?.entity;
  if (!first) throw new ActionError('target_lost', `player ${username} is not in view`);
  let mode: 'direct' | 'path' = 'direct';
  let stuckSince: number | null = null;
  let last = first.position.clone();
  const tick = () => {
    const target = bot.players[username]?.entity ?? first;
    const me = bot.entity.position;
    const dx = target.position.x - me.x;
    const dz = target.position.z - me.z;
    // The player's step since the last tick, along the line away from the NPC: a player walking
    // away is followed at once instead of after the gap has already grown.
    const stepAway =
      (dx * (target.position.x - last.x) + dz * (target.position.z - last.z)) / (Math.hypot(dx, dz) || 1);
    last = target.position.clone();
    const leaving = stepAway > 0.02;
    const gap = Math.hypot(dx, dz);
    const climb = Math.abs(target.position.y - me.y);
    if (mode === 'path') {
      if (gap > distance + 1 || climb > 1) return;
      bot.pathfinder.setGoal(null);
      mode = 'direct';
    }
    const stuck = stuckSince !== null && Date.now() - stuckSince > FOLLOW_STUCK_MS;
    if (gap > FOLLOW_PATH_GAP || climb > FOLLOW_PATH_HEIGHT || stuck || dropAhead(bot, dx / gap, dz / gap)) {
      bot.clearControlStates();
      stuckSince = null;
      bot.pathfinder.setGoal(new goals.GoalFollow(target, distance), true);
      mode = 'path';
      return;
    }
    void bot.look(Math.atan2(-dx, -dz), 0, true);
    const walk = gap > distance || (leaving && gap > distance - 1);
    const blocked =
      walk && Boolean((bot.entity as { isCollidedHorizontally?: boolean }).isCollidedHorizontally);
    bot.setControlState('forward', walk);
    // Sprinting as soon as the player pulls away keeps a walking player within distance + 1 even
    // when the NPC sees each step a few ticks late (it walks no faster than the player otherwise).
    bot.setControlState('sprint', gap > distance + 0.5 || (leaving && gap > distance));
    bot.setControlState('jump', blocked);
    stuckSince = blocked ? (stuckSince ?? Date.now()) : null;
  };
  bot.on('physicsTick', tick);
  try {
    await until<void>(bot, signal, (_resolve, reject, on) => {
      on('entityGone', (gone: Entity) => {
        if (gone.id === first.id)
          reject(new ActionError('target_lost', `player ${username} went out of view`));
      });
      on('end', () => reject(new ActionError('disconnected', 'disconnected while following')));
    });
  } finally {
    bot.removeListener('physicsTick', tick);
    stopWalking(bot);
  }
}

/** True when the ground one step ahead falls away by more than a block (no walking off edges). */
function dropAhead(bot: Bot, dirX: number, dirZ: number): boolean {
  if (!Number.isFinite(dirX) || !Number.isFinite(dirZ)) return false;
  const ahead = bot.entity.position.offset(dirX, 0, dirZ).floored();
  const solid = (dy: number) => bot.blockAt(ahead.offset(0, dy, 0))?.boundingBox === 'block';
  return !solid(-1) && !solid(-2) && !solid(0);
}

export function stopWalking(bot: Bot): void {
  bot.pathfinder?.setGoal(null);
  bot.clearControlStates();
}

function goalVec(bot: Bot, target: Position) {
  return bot.entity.position.clone().set(target.x, target.y, target.z);
}
