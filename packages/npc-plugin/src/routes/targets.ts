import { EMOTES_WITH_TARGET, type EmoteName } from '../core/emotes.js';
import type { LookTarget, Position } from '../core/game.js';
import type { MoveCommand } from '../core/npc.js';
import { invalidField } from '../errors.js';
import { FOLLOW_DISTANCE, MOVE_RANGE, positionOf } from '../shared/fields.js';
import type { LookBody, MoveBody, SpawnBody, Target } from './schemas.js';

/**
 * Turns the "exactly one of" bodies into commands. The schemas check each field; these check the
 * combination and name the field at fault.
 */
export function spawnPosition(body: SpawnBody | undefined): Position | null {
  return body ? positionOf(body) : null;
}

export function moveCommand(body: MoveBody): MoveCommand {
  const position = positionOf(body);
  const modes = [
    position ? 'x' : null,
    body.follow !== undefined ? 'follow' : null,
    body.stop ? 'stop' : null,
  ].filter((mode): mode is string => mode !== null);
  if (modes.length !== 1) {
    throw invalidField(modes[1] ?? 'body', 'give exactly one of x/y/z, follow or stop');
  }
  if (body.range !== undefined && !position) throw invalidField('range', 'only goes with x/y/z');
  if (body.distance !== undefined && body.follow === undefined)
    throw invalidField('distance', 'only goes with follow');
  if (position) return { kind: 'position', position, range: body.range ?? MOVE_RANGE.default };
  if (body.follow !== undefined)
    return { kind: 'follow', player: body.follow, distance: body.distance ?? FOLLOW_DISTANCE.default };
  return { kind: 'stop' };
}

export function targetOf(body: Target, field: string): LookTarget | null {
  const position = positionOf(body, field);
  const modes = [
    position ? 'x' : null,
    body.player !== undefined ? 'player' : null,
    body.entity_id !== undefined ? 'entity_id' : null,
  ].filter((mode): mode is string => mode !== null);
  if (modes.length > 1)
    throw invalidField(`${field}.${modes[1]}`, 'give only one of x/y/z, player or entity_id');
  if (position) return { kind: 'position', position };
  if (body.player !== undefined) return { kind: 'player', name: body.player };
  if (body.entity_id !== undefined) return { kind: 'entity', id: body.entity_id };
  return null;
}

export function lookTarget(body: LookBody): LookTarget {
  const { yaw, pitch, ...rest } = body;
  const target = targetOf(rest, 'body');
  const angles = yaw !== undefined || pitch !== undefined;
  if (target && angles)
    throw invalidField(yaw !== undefined ? 'yaw' : 'pitch', 'give either a target or yaw and pitch');
  if (target) return target;
  if (yaw === undefined) throw invalidField('yaw', 'give x/y/z, player, entity_id, or yaw and pitch');
  if (pitch === undefined) throw invalidField('pitch', 'is required with yaw');
  return { kind: 'angles', yaw, pitch };
}

export function emoteTarget(name: EmoteName, target: Target | undefined): LookTarget | null {
  const needsTarget = EMOTES_WITH_TARGET.includes(name);
  if (!needsTarget) {
    if (target !== undefined)
      throw invalidField('target', `only ${EMOTES_WITH_TARGET.join(', ')} takes a target`);
    return null;
  }
  const resolved = target ? targetOf(target, 'target') : null;
  if (!resolved) throw invalidField('target', `${name} needs a target: x/y/z, player or entity_id`);
  return resolved;
}

/** Minecraft kicks for control characters and "§"; a leading "/" would run a command as the NPC. */
export function checkChatMessage(message: string): void {
  if ([...message].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f' || char === '§')) {
    throw invalidField('message', 'must not contain control characters or "§"');
  }
  if (message.trimStart().startsWith('/')) throw invalidField('message', 'must not start with "/"');
  if (message.trim() === '') throw invalidField('message', 'must contain visible text');
}
