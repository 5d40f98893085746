import { splitChat } from './chat-splitter.js';

/**
 * Minecraft formatting codes: `§` or `&` followed by a colour (0-9, a-f), a style (k-o), reset (r)
 * or the hex-colour marker (x). They are removed from every chat line the NPC hears or reports, so
 * the model, `/world` and the event stream see plain text. "&" before any other character is kept.
 */
const FORMATTING = /[§&][0-9a-fk-orx]/gi;

export function stripFormatting(text: string): string {
  return text.replace(FORMATTING, '');
}

export interface ReplyLimits {
  /** Longest reply in characters; the rest is dropped at a word boundary. */
  maxChars: number;
  /** Most chat lines one reply may take; the rest is dropped. */
  maxLines: number;
  /** The game's chat line limit. */
  lineLimit: number;
}

/**
 * Turns a model's answer into the chat lines actually said: formatting codes removed, cut to
 * `maxChars` (at the last space when there is one) and to `maxLines` lines. A gateway that sends a
 * novel cannot keep the NPC talking for an hour.
 */
export function replyLines(text: string, limits: ReplyLimits): string[] {
  let plain = stripFormatting(text).replace(/\s+/g, ' ').trim();
  if (plain.length > limits.maxChars) {
    const cut = plain.slice(0, limits.maxChars);
    const space = cut.lastIndexOf(' ');
    plain = space > limits.maxChars / 2 ? cut.slice(0, space) : cut;
  }
  return splitChat(plain, limits.lineLimit).slice(0, limits.maxLines);
}
