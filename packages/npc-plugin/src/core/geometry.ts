import type { Position } from './game.js';

export function distance(a: Position, b: Position): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

/** Rounds coordinates for JSON output: centimetre precision is plenty for a block game. */
export function roundPosition(p: Position, digits = 2): Position {
  return { x: round(p.x, digits), y: round(p.y, digits), z: round(p.z, digits) };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
