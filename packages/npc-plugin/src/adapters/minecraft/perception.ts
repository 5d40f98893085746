import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type {
  BlockSummary,
  EntitySnapshot,
  PlayerSnapshot,
  SelfSnapshot,
  WorldSnapshot,
} from '../../core/game.js';
import { round, roundPosition } from '../../core/geometry.js';
import { toGamePitch, toGameYaw, viewDirection } from './angles.js';

/** Half-size of the cube whose blocks are counted; 9×9×9 = 729 lookups is cheap. */
export const BLOCK_SCAN_RADIUS = 4;
const EYE_HEIGHT = 1.62;

type Vec3 = Entity['position'];

export function selfSnapshot(bot: Bot): SelfSnapshot {
  return {
    username: bot.username,
    position: roundPosition(bot.entity.position),
    yaw: round(toGameYaw(bot.entity.yaw), 1),
    pitch: round(toGamePitch(bot.entity.pitch), 1),
    health: bot.health ?? 0,
    food: bot.food ?? 0,
    dimension: String(bot.game?.dimension ?? 'unknown').replace(/^minecraft:/, ''),
    alive: (bot.health ?? 0) > 0,
  };
}

/** True when the entity's line of sight passes through the NPC's body (about ±1 block around its middle). */
export function isLookingAt(viewer: Entity, target: Vec3): boolean {
  const eye = viewer.position.offset(0, EYE_HEIGHT, 0);
  const toTarget = target.offset(0, 0.9, 0).minus(eye);
  const length = toTarget.norm();
  if (length < 0.5) return true;
  const view = viewDirection(viewer.yaw, viewer.pitch);
  const cos = (view.x * toTarget.x + view.y * toTarget.y + view.z * toTarget.z) / length;
  const angle = Math.acos(Math.max(-1, Math.min(1, cos)));
  return angle <= Math.atan2(1, length);
}

function players(bot: Bot, radius: number): PlayerSnapshot[] {
  const me = bot.entity.position;
  const seen: PlayerSnapshot[] = [];
  for (const player of Object.values(bot.players)) {
    const entity = player.entity;
    if (!entity || player.username === bot.username) continue;
    const distance = entity.position.distanceTo(me);
    if (distance > radius) continue;
    seen.push({
      name: player.username,
      entity_id: entity.id,
      position: roundPosition(entity.position),
      distance: round(distance),
      looking_at_npc: isLookingAt(entity, me),
    });
  }
  return seen.sort((a, b) => a.distance - b.distance);
}

function entities(bot: Bot, radius: number): EntitySnapshot[] {
  const me = bot.entity.position;
  const seen: EntitySnapshot[] = [];
  for (const entity of Object.values(bot.entities)) {
    if (entity === bot.entity) continue;
    const distance = entity.position.distanceTo(me);
    if (distance > radius) continue;
    seen.push({
      id: entity.id,
      type: String(entity.type ?? 'other'),
      name: entity.username ?? entity.name ?? 'unknown',
      position: roundPosition(entity.position),
      distance: round(distance),
    });
  }
  return seen.sort((a, b) => a.distance - b.distance);
}

function blocks(bot: Bot): BlockSummary {
  const feet = bot.entity.position.floored();
  const counts = new Map<string, number>();
  const r = BLOCK_SCAN_RADIUS;
  for (let dx = -r; dx <= r; dx++) {
    for (let dy = -r; dy <= r; dy++) {
      for (let dz = -r; dz <= r; dz++) {
        const block = bot.blockAt(feet.offset(dx, dy, dz), false);
        if (!block || block.name === 'air' || block.name === 'cave_air' || block.name === 'void_air')
          continue;
        counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
      }
    }
  }
  const view = viewDirection(bot.entity.yaw, 0);
  const ahead = feet.offset(Math.round(view.x), 0, Math.round(view.z));
  return {
    radius: r,
    counts: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])),
    under: bot.blockAt(feet.offset(0, -1, 0), false)?.name ?? null,
    in_front: bot.blockAt(ahead, false)?.name ?? null,
  };
}

function phase(timeOfDay: number): WorldSnapshot['time']['phase'] {
  if (timeOfDay < 12_000) return 'day';
  if (timeOfDay < 13_800) return 'sunset';
  if (timeOfDay < 22_200) return 'night';
  return 'sunrise';
}

export function worldSnapshot(bot: Bot, radius: number): WorldSnapshot {
  const self = selfSnapshot(bot);
  const biome = bot.blockAt(bot.entity.position.floored(), false)?.biome?.name;
  const timeOfDay = bot.time?.timeOfDay ?? 0;
  return {
    self,
    players: players(bot, radius),
    entities: entities(bot, radius),
    blocks: blocks(bot),
    time: { ticks: timeOfDay, phase: phase(timeOfDay) },
    weather: bot.thunderState > 0 ? 'thunder' : bot.isRaining ? 'rain' : 'clear',
    dimension: self.dimension,
    biome: biome && biome !== '' ? biome : 'unknown',
  };
}
