import { type Static, Type } from 'typebox';
import { EMOTES } from '../core/emotes.js';
import { NPC_STATES } from '../core/state-machine.js';
import { Coordinate, FOLLOW_DISTANCE, Height, MOVE_RANGE, PlayerName } from '../shared/fields.js';

/**
 * Request and response shapes of the endpoints. These are our
 * decisions, and the same declarations validate requests, serialise responses, type the handlers and
 * make the OpenAPI document.
 */

export const Position = Type.Object(
  { x: Coordinate, y: Height, z: Coordinate },
  { additionalProperties: false },
);
const NullablePosition = Type.Union([Position, Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const State = Type.Enum([...NPC_STATES], {
  description: 'The behaviour state; see the package README diagram',
});

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    field: Type.Optional(Type.String({ description: 'The request field at fault (400)' })),
    state: Type.Optional(Type.String({ description: 'The NPC state that refused the action (409)' })),
    allowed: Type.Optional(
      Type.Array(Type.String(), { description: 'Allowed values (400 for an unknown emote)' }),
    ),
  },
  { additionalProperties: false },
);

const OptionalCoordinates = {
  x: Type.Optional(Coordinate),
  y: Type.Optional(Height),
  z: Type.Optional(Coordinate),
};

export const SpawnBody = Type.Object(OptionalCoordinates, {
  additionalProperties: false,
  description: 'Empty, or x, y and z: teleport there where the server allows it, else walk there.',
});
export type SpawnBody = Static<typeof SpawnBody>;

export const MoveBody = Type.Object(
  {
    ...OptionalCoordinates,
    range: Type.Optional(
      Type.Number({
        minimum: MOVE_RANGE.minimum,
        maximum: MOVE_RANGE.maximum,
        description: 'Arrival radius for x/y/z, blocks (default 1)',
      }),
    ),
    follow: Type.Optional(PlayerName),
    distance: Type.Optional(
      Type.Number({
        minimum: FOLLOW_DISTANCE.minimum,
        maximum: FOLLOW_DISTANCE.maximum,
        description: 'Distance kept while following, blocks (default 2)',
      }),
    ),
    stop: Type.Optional(Type.Literal(true)),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of: x, y and z (walk there); follow (keep near a player); stop: true.',
  },
);
export type MoveBody = Static<typeof MoveBody>;

/** Longest `/chat` message; it is split into lines of the game's chat limit (256 for Minecraft). */
export const CHAT_MAX_LENGTH = 1000;
export const ChatBody = Type.Object(
  {
    message: Type.String({
      minLength: 1,
      maxLength: CHAT_MAX_LENGTH,
      description: 'Said in public chat; no control characters, no "§", must not start with "/".',
    }),
  },
  { additionalProperties: false },
);
export type ChatBody = Static<typeof ChatBody>;

const TargetFields = {
  ...OptionalCoordinates,
  player: Type.Optional(PlayerName),
  entity_id: Type.Optional(Type.Integer({ minimum: 0 })),
};

export const LookBody = Type.Object(
  {
    ...TargetFields,
    yaw: Type.Optional(
      Type.Number({ minimum: -360, maximum: 360, description: 'Degrees; 0 = south, 90 = west' }),
    ),
    pitch: Type.Optional(
      Type.Number({ minimum: -90, maximum: 90, description: 'Degrees; 90 = straight down' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of: x, y and z; player; entity_id; yaw and pitch.',
  },
);
export type LookBody = Static<typeof LookBody>;

export const Target = Type.Object(TargetFields, {
  additionalProperties: false,
  description: 'Exactly one of: x, y and z; player; entity_id.',
});
export type Target = Static<typeof Target>;

export const EmoteBody = Type.Object(
  {
    name: Type.Enum([...EMOTES], { description: `One of ${EMOTES.join(', ')}` }),
    target: Type.Optional(Target),
  },
  { additionalProperties: false, description: 'point_at needs a target; the other emotes take none.' },
);
export type EmoteBody = Static<typeof EmoteBody>;

export const WorldQuery = Type.Object(
  {
    radius: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1024,
        description: 'Default 16 blocks; capped at NPC_WORLD_RADIUS_MAX (64)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WorldQuery = Static<typeof WorldQuery>;

const Goal = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Enum(['move', 'follow', 'emote', 'talk']),
    target: Type.Object({}, { additionalProperties: true }),
    status: Type.Enum([
      'active',
      'succeeded',
      'failed',
      'cancelled',
      'preempted',
      'timed_out',
      'disconnected',
    ]),
    started_at: Type.String({ format: 'date-time' }),
    ended_at: NullableString,
    progress: Type.Union([
      Type.Object({
        distance_remaining: Type.Number(),
        initial_distance: Type.Number(),
        fraction: Type.Number(),
      }),
      Type.Null(),
    ]),
    error: NullableString,
  },
  { description: 'The current goal, else the last one with its outcome' },
);
const NullableGoal = Type.Union([Goal, Type.Null()]);

export const SpawnReply = Type.Object({
  action: Type.Enum(['joined', 'respawned', 'already_spawned', 'teleported', 'walking']),
  state: State,
  position: Position,
  goal: NullableGoal,
});

export const MoveReply = Type.Object({ state: State, goal: NullableGoal });
export const ChatReply = Type.Object({ state: State, lines: Type.Array(Type.String()) });
export const LookReply = Type.Object({ state: State, yaw: Type.Number(), pitch: Type.Number() });
export const EmoteReply = Type.Object({ state: State, goal: Goal });

export const StatusReply = Type.Object({
  plugin: Type.Object({ id: Type.String(), version: Type.String() }),
  spawned: Type.Boolean(),
  state: State,
  position: NullablePosition,
  yaw: NullableNumber,
  pitch: NullableNumber,
  health: NullableNumber,
  food: NullableNumber,
  dimension: NullableString,
  goal: NullableGoal,
  connection: Type.Object({
    connected: Type.Boolean(),
    reconnecting: Type.Boolean(),
    attempts: Type.Integer(),
    next_attempt_at: NullableString,
    connected_since: NullableString,
    last_disconnect: Type.Union([Type.Object({ reason: Type.String(), at: Type.String() }), Type.Null()]),
    last_error: NullableString,
  }),
  gateway: Type.Object({
    configured: Type.Boolean(),
    model: NullableString,
    last_success_at: NullableString,
    last_error: Type.Union([
      Type.Object({ at: Type.String(), code: Type.String(), status: NullableNumber, message: Type.String() }),
      Type.Null(),
    ]),
  }),
  llm: Type.Object(
    {
      concurrency: Type.Integer({ description: 'NPC_LLM_CONCURRENCY: gateway requests in flight at most' }),
      in_flight: Type.Integer(),
      queued: Type.Integer({ description: 'Requests waiting for a free slot' }),
      day: Type.String({ description: 'The UTC day the counters belong to (YYYY-MM-DD)' }),
      requests_today: Type.Integer(),
      tokens_today: Type.Integer({ description: 'Sum of the usage.total_tokens the gateway reported' }),
      daily_token_budget: Type.Union([Type.Integer(), Type.Null()], {
        description: 'NPC_LLM_DAILY_TOKENS; null = unlimited',
      }),
      exhausted: Type.Boolean({ description: 'True once the budget is spent: the NPC answers a fixed line' }),
    },
    { description: 'Language-model budget' },
  ),
  uptime_s: Type.Integer(),
});

const Self = Type.Object({
  username: Type.String(),
  position: Position,
  yaw: Type.Number(),
  pitch: Type.Number(),
  health: Type.Number(),
  food: Type.Number(),
  dimension: Type.String(),
  alive: Type.Boolean(),
});

export const WorldReply = Type.Object({
  radius: Type.Integer({ description: 'The radius used, after the cap' }),
  self: Self,
  players: Type.Array(
    Type.Object({
      name: Type.String(),
      entity_id: Type.Integer(),
      position: Position,
      distance: Type.Number(),
      looking_at_npc: Type.Boolean(),
    }),
  ),
  entities: Type.Array(
    Type.Object({
      id: Type.Integer(),
      type: Type.String(),
      name: Type.String(),
      position: Position,
      distance: Type.Number(),
    }),
  ),
  blocks: Type.Object({
    radius: Type.Integer(),
    counts: Type.Record(Type.String(), Type.Integer()),
    under: NullableString,
    in_front: NullableString,
  }),
  time: Type.Object({ ticks: Type.Integer(), phase: Type.Enum(['day', 'sunset', 'night', 'sunrise']) }),
  weather: Type.Enum(['clear', 'rain', 'thunder']),
  dimension: Type.String(),
  biome: Type.String(),
  recent_chat: Type.Array(
    Type.Object({
      username: Type.String(),
      message: Type.String(),
      whisper: Type.Boolean(),
      distance: NullableNumber,
      at: Type.String({ format: 'date-time', description: 'When it was heard (ISO 8601)' }),
    }),
  ),
});

/** Error statuses every endpoint may answer, with the meaning the OpenAPI document gives them. */
export const commonErrors = {
  401: { ...ErrorBody, description: 'No or wrong credentials (WWW-Authenticate: Basic)' },
  403: { ...ErrorBody, description: 'Credentials without this endpoint permission node' },
  429: {
    ...ErrorBody,
    description:
      'Too many failed logins for this name from this address, from this address, or for this account (Retry-After)',
  },
  503: {
    ...ErrorBody,
    description: 'Too many logins are waiting for their password check (Retry-After)',
  },
};

export const HealthReply = Type.Object({
  status: Type.Literal('ok'),
  connected: Type.Boolean({ description: 'True while the NPC is in the game' }),
  state: State,
  uptime_s: Type.Integer(),
});
