/**
 * The boundary between the game-agnostic core and one game. Angles are in degrees with the game's own convention as a
 * player sees it (for Minecraft: yaw 0 = south, 90 = west; pitch 90 = straight down).
 */

export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface SelfSnapshot {
  username: string;
  position: Position;
  yaw: number;
  pitch: number;
  health: number;
  food: number;
  dimension: string;
  alive: boolean;
}

export interface PlayerSnapshot {
  name: string;
  entity_id: number;
  position: Position;
  distance: number;
  /** True when the player's line of sight passes through the NPC (within a few degrees). */
  looking_at_npc: boolean;
}

export interface EntitySnapshot {
  id: number;
  type: string;
  name: string;
  position: Position;
  distance: number;
}

export interface BlockSummary {
  /** Half-size of the scanned cube around the NPC's feet. */
  radius: number;
  /** Non-air blocks in that cube, by block name, most frequent first. */
  counts: Record<string, number>;
  under: string | null;
  in_front: string | null;
}

/** Perception for an external AI, without the core's chat log. */
export interface WorldSnapshot {
  self: SelfSnapshot;
  players: PlayerSnapshot[];
  entities: EntitySnapshot[];
  blocks: BlockSummary;
  time: { ticks: number; phase: 'day' | 'sunset' | 'night' | 'sunrise' };
  weather: 'clear' | 'rain' | 'thunder';
  dimension: string;
  biome: string;
}

/** A chat line the NPC heard. `distance` is null when the speaker is not in view; `at` is epoch ms. */
export interface ChatEvent {
  username: string;
  message: string;
  whisper: boolean;
  distance: number | null;
  at: number;
}

export type LookTarget =
  | { kind: 'position'; position: Position }
  | { kind: 'player'; name: string }
  | { kind: 'entity'; id: number }
  | { kind: 'angles'; yaw: number; pitch: number };

export type GameEvent =
  | { type: 'chat'; chat: ChatEvent }
  | { type: 'disconnected'; reason: string }
  | { type: 'died' }
  | { type: 'respawned' };

export interface ActionOptions {
  signal: AbortSignal;
}

export interface MoveOptions extends ActionOptions {
  /** Called as the NPC approaches the goal, with the straight-line distance left. */
  onProgress?: (distanceRemaining: number) => void;
}

/** Why a long action ended without reaching its goal. */
export type ActionFailure = 'no_path' | 'target_lost' | 'disconnected' | 'failed';

/** Thrown by adapter actions that fail for a reason other than their signal aborting. */
export class ActionError extends Error {
  constructor(
    readonly reason: ActionFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** One game connection at a time; `connect` may be called again after a disconnect. */
export interface GameAdapter {
  /** Longest chat line the game accepts. */
  readonly chatLimit: number;
  /** Longest line `say` (null) or `whisper` to that player can send as one message. */
  chatLimitFor(whisperTo: string | null): number;
  /** The emotes this game can show, a subset of `EMOTES`. */
  readonly emotes: readonly string[];
  /** Joins the world; resolves once the NPC stands in it. Rejects on abort, kick or error. */
  connect(options: ActionOptions): Promise<void>;
  /** Leaves the world; no `disconnected` event is emitted for a requested quit. */
  disconnect(): Promise<void>;
  isConnected(): boolean;
  onEvent(listener: (event: GameEvent) => void): () => void;
  self(): SelfSnapshot;
  perceive(radius: number): WorldSnapshot;
  /** Names of the players in view within `radius` blocks, with their distance. */
  nearbyPlayers(radius: number): { name: string; distance: number }[];
  /** Position of a visible player or entity, or null. */
  locate(target: { player: string } | { entity: number }): Position | null;
  say(text: string): void;
  whisper(username: string, text: string): void;
  /** Walks (pathfinding) to within `range` blocks of `position`. */
  moveTo(position: Position, range: number, options: MoveOptions): Promise<void>;
  /** Keeps within `distance` blocks of a player until the signal aborts. */
  follow(username: string, distance: number, options: ActionOptions): Promise<void>;
  look(target: LookTarget): Promise<void>;
  emote(name: string, target: LookTarget | null, options: ActionOptions): Promise<void>;
  /** Asks the server to teleport the NPC; resolves true when the NPC arrived. */
  teleport(position: Position, options: ActionOptions): Promise<boolean>;
  /** Respawns after death; resolves false when the NPC is alive. */
  respawn(options: ActionOptions): Promise<boolean>;
}
