import { type Static, type TSchema, Type } from 'typebox';
import { Coordinate, Height, PlayerName } from '../../shared/fields.js';
import { EMOTES } from '../emotes.js';

/**
 * The functions the language model may call. Their arguments use the same field shapes as the HTTP
 * endpoints (coordinates, heights, player names), and every call goes through the same NPC service
 * methods, so the distance cap, the state rules and "player not in view" apply alike.
 */
export const TOOL_NAMES = ['follow_player', 'stop', 'go_to', 'look_at', 'emote'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

const closed = { additionalProperties: false } as const;

export const FollowPlayerArgs = Type.Object({ player: PlayerName }, closed);
export const StopArgs = Type.Object({}, closed);
export const GoToArgs = Type.Object(
  {
    x: Type.Optional(Coordinate),
    y: Type.Optional(Height),
    z: Type.Optional(Coordinate),
    player: Type.Optional(PlayerName),
  },
  closed,
);
export const LookAtArgs = GoToArgs;
export const EmoteArgs = Type.Object(
  {
    name: Type.Enum([...EMOTES]),
    player: Type.Optional({ ...PlayerName, description: 'The player to point at (point_at only)' }),
  },
  closed,
);

export type FollowPlayerArgs = Static<typeof FollowPlayerArgs>;
export type GoToArgs = Static<typeof GoToArgs>;
export type EmoteArgs = Static<typeof EmoteArgs>;

export const TOOL_SPECS: Record<ToolName, { description: string; parameters: TSchema }> = {
  follow_player: {
    description: 'Follow a player, keeping about 2 blocks away, until told to stop.',
    parameters: FollowPlayerArgs,
  },
  stop: { description: 'Stop moving or following.', parameters: StopArgs },
  go_to: {
    description: 'Walk to a position (x, y, z in blocks) or to where a player stands (player).',
    parameters: GoToArgs,
  },
  look_at: {
    description: 'Turn to look at a player (player) or a position (x, y, z).',
    parameters: LookAtArgs,
  },
  emote: {
    description: `Play a gesture: ${EMOTES.join(', ')}. point_at needs the player to point at.`,
    parameters: EmoteArgs,
  },
};
