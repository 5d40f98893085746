import type { WorldSnapshot } from './game.js';
import { round } from './geometry.js';

/**
 * A short plain-text summary of what the NPC perceives, for the system prompt. Kept to a few lines: the model
 * needs context, not a block dump.
 */
export function summarisePerception(world: WorldSnapshot, maxNames = 5): string {
  const p = world.self.position;
  const lines = [
    `- You stand at x=${Math.round(p.x)} y=${Math.round(p.y)} z=${Math.round(p.z)} in ${world.dimension} (${world.biome}), on ${world.blocks.under ?? 'nothing'}.`,
    `- It is ${world.time.phase}; the weather is ${world.weather}. Your health is ${round(world.self.health, 1)}/20.`,
  ];
  const players = [...world.players].sort((a, b) => a.distance - b.distance).slice(0, maxNames);
  lines.push(
    players.length === 0
      ? '- No players are near you.'
      : `- Players near you: ${players.map((pl) => `${pl.name} (${Math.round(pl.distance)} blocks)`).join(', ')}.`,
  );
  const others = world.entities.filter((e) => e.type !== 'player');
  if (others.length > 0) {
    const kinds = new Map<string, number>();
    for (const entity of others) kinds.set(entity.name, (kinds.get(entity.name) ?? 0) + 1);
    const listed = [...kinds].slice(0, maxNames).map(([name, count]) => `${count} ${name}`);
    lines.push(`- Creatures and things nearby: ${listed.join(', ')}.`);
  }
  return lines.join('\n');
}
