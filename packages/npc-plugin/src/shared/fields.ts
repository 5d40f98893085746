import { Type } from 'typebox';
import type { Position } from '../core/game.js';
import { invalidField } from '../errors.js';

/**
 * Field shapes shared by the HTTP request schemas and the tools the language model may call, so both
 * accept exactly the same values. Minecraft's world border is at ±30 million blocks; heights beyond
 * ±2048 do not exist.
 */
export const Coordinate = Type.Number({ minimum: -30_000_000, maximum: 30_000_000 });
export const Height = Type.Number({ minimum: -2048, maximum: 2048 });
export const PlayerName = Type.String({ pattern: '^[A-Za-z0-9_]{1,16}$', description: 'A player name' });

/** Distance kept while following, blocks: default 2, at most 16. */
export const FOLLOW_DISTANCE = { default: 2, minimum: 1, maximum: 16 } as const;
/** Arrival radius of a walk to a position, blocks: default 1, at most 16. */
export const MOVE_RANGE = { default: 1, minimum: 0.5, maximum: 16 } as const;

/**
 * Reads x, y and z given together, or none of them; a partial position is a 400 naming the first
 * missing coordinate (under `field` when the coordinates are nested).
 */
export function positionOf(body: { x?: number; y?: number; z?: number }, field = 'x'): Position | null {
  const given = (['x', 'y', 'z'] as const).filter((axis) => body[axis] !== undefined);
  if (given.length === 0) return null;
  const missing = (['x', 'y', 'z'] as const).find((axis) => body[axis] === undefined);
  if (missing)
    throw invalidField(
      field === 'x' ? missing : `${field}.${missing}`,
      'is required with the other coordinates',
    );
  return { x: body.x!, y: body.y!, z: body.z! };
}
