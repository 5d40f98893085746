import type { ChatEvent } from '../game.js';

export interface ChatFilterOptions {
  ownName: string;
  radius: number;
  ignoredPlayers: readonly string[];
}

export type ChatVerdict =
  | { reply: true }
  | { reply: false; reason: 'self' | 'ignored' | 'out_of_range' | 'echo' | 'empty' | 'command' };

/**
 * Decides whether a heard line deserves an answer: whispers always, public chat only
 * within the radius; never our own lines, never ignored players, never a line that repeats what the
 * NPC said recently (another bot echoing us would otherwise loop forever).
 */
export function judgeChat(
  event: ChatEvent,
  options: ChatFilterOptions,
  recentOwnLines: readonly string[],
): ChatVerdict {
  const name = event.username.toLowerCase();
  if (name === options.ownName.toLowerCase()) return { reply: false, reason: 'self' };
  if (options.ignoredPlayers.some((ignored) => ignored.toLowerCase() === name))
    return { reply: false, reason: 'ignored' };
  const message = event.message.trim();
  if (message === '') return { reply: false, reason: 'empty' };
  if (message.startsWith('/')) return { reply: false, reason: 'command' };
  if (!event.whisper && (event.distance === null || event.distance > options.radius)) {
    return { reply: false, reason: 'out_of_range' };
  }
  const normalised = normalise(message);
  if (recentOwnLines.some((line) => normalise(line) === normalised)) return { reply: false, reason: 'echo' };
  return { reply: true };
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
