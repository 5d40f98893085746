/**
 * The fixed emote list. Only point_at takes a target; each emote is short and bounded by EMOTE_TIMEOUT_MS.
 */
export const EMOTES = ['wave', 'nod', 'shake_head', 'jump', 'crouch', 'spin', 'point_at'] as const;
export type EmoteName = (typeof EMOTES)[number];

export const EMOTES_WITH_TARGET: readonly EmoteName[] = ['point_at'];

/** Upper bound on one emote; the longest (crouch, spin) take about a second. */
export const EMOTE_TIMEOUT_MS = 5000;

export function isEmote(name: string): name is EmoteName {
  return (EMOTES as readonly string[]).includes(name);
}
