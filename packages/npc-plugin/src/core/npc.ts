import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import { withDeadline } from '../shared/deadline.js';
import { type EmoteParams, emoting } from './behaviours/emoting.js';
import { following } from './behaviours/following.js';
import { moving } from './behaviours/moving.js';
import { talking } from './behaviours/talking.js';
import { ChatOutbox } from './chat-outbox.js';
import { splitChat } from './chat-splitter.js';
import { type ConnectionStatus, ConnectionSupervisor } from './connection-supervisor.js';
import { Conversation } from './conversation/conversation.js';
import type { ChatEvent, GameAdapter, LookTarget, Position, WorldSnapshot } from './game.js';
import { GatewayHealth, type GatewayHealthStatus } from './gateway/gateway-health.js';
import type { LlmGateway } from './gateway/llm-gateway.js';
import { distance, round, roundPosition } from './geometry.js';
import { BehaviourStateMachine, type GoalRecord, type NpcState } from './state-machine.js';

export interface NpcOptions {
  pluginId: string;
  version: string;
  npcName: string;
  autoSpawn: boolean;
  chatRadius: number;
  systemPrompt: string;
  memoryTurns: number;
  repliesPerMinute: number;
  ignoredPlayers: readonly string[];
  reconnectMinMs: number;
  reconnectMaxMs: number;
  connectTimeoutMs: number;
  moveTimeoutMs: number;
  followTimeoutMs: number;
  maxMoveDistance: number;
  worldRadiusMax: number;
}

interface Logger {
  debug(object: object, message: string): void;
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export type MoveCommand =
  | { kind: 'position'; position: Position; range: number }
  | { kind: 'follow'; player: string; distance: number }
  | { kind: 'stop' };

/** What `POST /spawn` did. */
export type SpawnAction = 'joined' | 'respawned' | 'already_spawned' | 'teleported' | 'walking';

export interface NpcStatus {
  plugin: { id: string; version: string };
  spawned: boolean;
  state: NpcState;
  position: Position | null;
  yaw: number | null;
  pitch: number | null;
  health: number | null;
  food: number | null;
  dimension: string | null;
  goal: GoalRecord | null;
  connection: ConnectionStatus;
  gateway: GatewayHealthStatus;
  uptime_s: number;
}

export interface NpcWorld extends WorldSnapshot {
  radius: number;
  recent_chat: ChatEvent[];
}

/** How long `/spawn` waits for a teleport to show before walking instead. */
const TELEPORT_WAIT_MS = 3000;
/** Time a `/spawn` may take to join or respawn. */
const RESPAWN_TIMEOUT_MS = 10_000;

/**
 * The NPC service (spec §1 "NPC entity management"): holds the rules behind the seven endpoints.
 * Routes only delegate here; the game itself sits behind `GameAdapter`.
 */
export class Npc {
  readonly machine: BehaviourStateMachine;
  readonly #supervisor: ConnectionSupervisor;
  readonly #outbox: ChatOutbox;
  readonly #conversation: Conversation;
  readonly #health: GatewayHealth;
  readonly #startedAt = Date.now();
  readonly #unsubscribe: (() => void)[] = [];

  constructor(
    private readonly game: GameAdapter,
    gateway: LlmGateway,
    private readonly options: NpcOptions,
    private readonly logger: Logger,
  ) {
    this.machine = new BehaviourStateMachine(game);
    this.#supervisor = new ConnectionSupervisor(
      game,
      this.machine,
      {
        minDelayMs: options.reconnectMinMs,
        maxDelayMs: options.reconnectMaxMs,
        connectTimeoutMs: options.connectTimeoutMs,
      },
      logger,
    );
    this.#outbox = new ChatOutbox(game);
    this.#health = new GatewayHealth(gateway.configured, gateway.model);
    this.#conversation = new Conversation(
      game,
      gateway,
      this.#health,
      this.#outbox,
      {
        npcName: options.npcName,
        radius: options.chatRadius,
        systemPrompt: options.systemPrompt,
        memoryTurns: options.memoryTurns,
        repliesPerMinute: options.repliesPerMinute,
        ignoredPlayers: options.ignoredPlayers,
        perceptionRadius: Math.min(16, options.worldRadiusMax),
      },
      logger,
    );
    this.#unsubscribe.push(
      game.onEvent((event) => {
        if (event.type === 'chat') this.#conversation.hear(event.chat);
        else if (event.type === 'died') logger.info({}, 'NPC died');
      }),
      this.#conversation.onComposing(() => void this.#startTalking('conversation')),
    );
  }

  /** Joins the world in the background when NPC_AUTO_SPAWN is on. */
  start(): void {
    if (this.options.autoSpawn) this.#supervisor.start();
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#conversation.close();
    await this.machine.stop();
    await this.#supervisor.close();
  }

  /** `POST /spawn`: join (or respawn); with a position, teleport where allowed, else walk. */
  async spawn(
    position: Position | null,
  ): Promise<{ action: SpawnAction; state: NpcState; position: Position; goal: GoalRecord | null }> {
    let action: SpawnAction = 'already_spawned';
    if (!this.game.isConnected() || this.machine.state === 'connecting' || this.machine.state === 'offline') {
      await this.#supervisor.connectNow();
      action = 'joined';
    } else if (await withDeadline(null, RESPAWN_TIMEOUT_MS, (signal) => this.game.respawn({ signal }))) {
      action = 'respawned';
    }
    let goal: GoalRecord | null = null;
    if (position) {
      this.#checkDistance(position);
      if (await withDeadline(null, TELEPORT_WAIT_MS, (signal) => this.game.teleport(position, { signal }))) {
        action = 'teleported';
      } else {
        goal = (
          await this.machine.start(moving, {
            target: position,
            range: 1,
            timeoutMs: this.options.moveTimeoutMs,
          })
        ).goal;
        action = 'walking';
      }
    }
    return { action, state: this.machine.state, position: roundPosition(this.game.self().position), goal };
  }

  /** `POST /move`: answers at once with the accepted goal; progress shows in `/status`. */
  async move(command: MoveCommand): Promise<{ state: NpcState; goal: GoalRecord | null }> {
    this.#requireSpawned();
    if (command.kind === 'stop') {
      const goal = await this.machine.stop();
      return { state: this.machine.state, goal };
    }
    if (command.kind === 'follow') {
      if (!this.game.locate({ player: command.player })) {
        throw new NotFoundError(`player ${command.player} is not in view`);
      }
      const { goal } = await this.machine.start(following, {
        player: command.player,
        distance: command.distance,
        timeoutMs: this.options.followTimeoutMs,
      });
      return { state: this.machine.state, goal };
    }
    this.#checkDistance(command.position);
    const { goal } = await this.machine.start(moving, {
      target: command.position,
      range: command.range,
      timeoutMs: this.options.moveTimeoutMs,
    });
    return { state: this.machine.state, goal };
  }

  /** `POST /chat`: says the message, split to the game's chat limit. */
  async say(message: string): Promise<{ state: NpcState; lines: string[] }> {
    this.#requireSpawned();
    const lines = splitChat(message, this.game.chatLimit);
    if (lines.length === 0) throw new BadRequestError('message', 'must contain visible text');
    this.#outbox.enqueue(lines);
    await this.#startTalking('chat');
    return { state: this.machine.state, lines };
  }

  /** `POST /look`: turns the head; refused while a movement steers it. */
  async look(target: LookTarget): Promise<{ state: NpcState; yaw: number; pitch: number }> {
    this.#requireSpawned();
    const state = this.machine.state;
    if (state === 'moving' || state === 'following' || state === 'emoting') {
      throw new ConflictError(`cannot look while ${state}; stop first`, state);
    }
    this.#requireVisible(target, 'target');
    await this.game.look(target);
    const self = this.game.self();
    return { state: this.machine.state, yaw: round(self.yaw, 1), pitch: round(self.pitch, 1) };
  }

  /** `POST /emote`: plays one emote and answers when it is over. */
  async emote(params: EmoteParams): Promise<{ state: NpcState; goal: GoalRecord }> {
    this.#requireSpawned();
    if (params.target) this.#requireVisible(params.target, 'target');
    const { done } = await this.machine.start(emoting, params);
    const goal = await done;
    return { state: this.machine.state, goal };
  }

  status(): NpcStatus {
    const spawned = this.#spawned();
    const self = spawned ? this.game.self() : null;
    return {
      plugin: { id: this.options.pluginId, version: this.options.version },
      spawned,
      state: this.machine.state,
      position: self ? roundPosition(self.position) : null,
      yaw: self ? round(self.yaw, 1) : null,
      pitch: self ? round(self.pitch, 1) : null,
      health: self ? round(self.health, 1) : null,
      food: self ? self.food : null,
      dimension: self ? self.dimension : null,
      goal: this.machine.goal,
      connection: this.#supervisor.status(),
      gateway: this.#health.status(),
      uptime_s: Math.round((Date.now() - this.#startedAt) / 1000),
    };
  }

  /** `GET /world`: perception within `radius` (capped at NPC_WORLD_RADIUS_MAX). */
  world(radius: number): NpcWorld {
    this.#requireSpawned();
    const capped = Math.min(radius, this.options.worldRadiusMax);
    return { radius: capped, ...this.game.perceive(capped), recent_chat: [...this.#conversation.recentChat] };
  }

  #spawned(): boolean {
    const state = this.machine.state;
    return state !== 'offline' && state !== 'connecting' && this.game.isConnected();
  }

  #requireSpawned(): void {
    if (!this.#spawned())
      throw new ConflictError('the NPC is not in the world; POST /spawn first', this.machine.state);
  }

  #requireVisible(target: LookTarget, field: string): void {
    if (target.kind === 'player' && !this.game.locate({ player: target.name })) {
      throw new NotFoundError(`${field}: player ${target.name} is not in view`);
    }
    if (target.kind === 'entity' && !this.game.locate({ entity: target.id })) {
      throw new NotFoundError(`${field}: entity ${target.id} is not in view`);
    }
  }

  #checkDistance(position: Position): void {
    if (!this.game.isConnected()) return;
    const away = distance(this.game.self().position, position);
    if (away > this.options.maxMoveDistance) {
      throw new BadRequestError(
        'x',
        `target is ${Math.round(away)} blocks away; the limit is ${this.options.maxMoveDistance}`,
      );
    }
  }

  /** Shows `talking` while idle and speaking or composing; never interrupts a movement. */
  async #startTalking(withWhom: string): Promise<void> {
    if (this.machine.state !== 'idle') return;
    const quiet = (signal: AbortSignal) => this.#conversation.quiet(signal);
    await this.machine.start(talking, { quiet, with: withWhom }).catch((error: unknown) => {
      this.logger.debug({ err: error }, 'not switching to talking');
    });
  }
}
