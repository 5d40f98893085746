/**
 * mineflayer keeps yaw and pitch in radians with yaw 0 = north, counter-clockwise; the core speaks the
 * game's own degrees (yaw 0 = south, 90 = west; pitch 90 = down), as the F3 screen shows them.
 */
const TAU = Math.PI * 2;

export function toGameYaw(radians: number): number {
  return normaliseDegrees(((Math.PI - radians) * 180) / Math.PI);
}

export function toGamePitch(radians: number): number {
  return (-radians * 180) / Math.PI;
}

export function fromGameYaw(degrees: number): number {
  return (((Math.PI - (degrees * Math.PI) / 180) % TAU) + TAU) % TAU;
}

export function fromGamePitch(degrees: number): number {
  return (-degrees * Math.PI) / 180;
}

/** Degrees into (-180, 180]. */
export function normaliseDegrees(degrees: number): number {
  const wrapped = ((degrees % 360) + 360) % 360;
  return wrapped > 180 ? wrapped - 360 : wrapped;
}

/** mineflayer's view direction for a yaw/pitch in its radians. */
export function viewDirection(yaw: number, pitch: number): { x: number; y: number; z: number } {
  const cosPitch = Math.cos(pitch);
  return { x: -Math.sin(yaw) * cosPitch, y: Math.sin(pitch), z: -Math.cos(yaw) * cosPitch };
}
