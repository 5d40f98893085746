import { Conflict, invalidField, NotFound, TooManyRequests } from '../errors.js';
import { withDeadline } from '../shared/deadline.js';
import { type EmoteParams, emoting } from './behaviours/emoting.js';
import { following } from './behaviours/following.js';
import { moving } from './behaviours/moving.js';
import { talking } from './behaviours/talking.js';
import { ChatOutbox } from './chat-outbox.js';
import { splitChat } from './chat-splitter.js';
import { type ConnectionStatus, ConnectionSupervisor } from './connection-supervisor.js';
import { Conversation } from './conversation/conversation.js';
import { EventHub } from './events/event-hub.js';
import type { ChatEvent, GameAdapter, LookTarget, Position, WorldSnapshot } from './game.js';
import { GatewayHealth, type GatewayHealthStatus } from './gateway/gateway-health.js';
import { LlmBudget, type LlmBudgetStatus } from './gateway/llm-budget.js';
import type { LlmGateway } from './gateway/llm-gateway.js';
import { distance, round, roundPosition } from './geometry.js';
import { BehaviourStateMachine, type GoalRecord, type NpcState } from './state-machine.js';
import { NO_TELEMETRY, type Telemetry } from './telemetry.js';
import { type NpcActions, NpcTools } from './tools/npc-tools.js';
import type { ToolName } from './tools/tool-schemas.js';

declare module './events/event-hub.js' {
  interface NpcEventMap {
    /** Lines the chat governor could not take: the backlog was full. */
    chat_dropped: { lines: number; whisper_to: string | null; reason: 'backlog_full' };
  }
}

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
  tools: readonly ToolName[];
  /** Names that may make the NPC act through tools; null = everyone. */
  toolPlayers: readonly string[] | null;
  /** Most tool calls run from one model answer. */
  maxToolCalls: number;
  /** How long an operator's HTTP command keeps players' tool calls off the NPC. */
  operatorHoldMs: number;
  /** How long a `follow_player` tool call follows at most. */
  toolFollowTimeoutMs: number;
  /** How far from where it started a `follow_player` tool call may lead the NPC, in blocks. */
  followLeash: number;
  maxQuickExchanges: number;
  replyMaxChars: number;
  replyMaxLines: number;
  llmConcurrency: number;
  /** null = unlimited. */
  llmDailyTokens: number | null;
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
  llm: LlmBudgetStatus;
  uptime_s: number;
}

/** A heard chat line as `/world` reports it, with an ISO 8601 timestamp. */
export type ReportedChat = Omit<ChatEvent, 'at'> & { at: string };

export interface NpcWorld extends WorldSnapshot {
  radius: number;
  recent_chat: ReportedChat[];
}

/** How long `/spawn` waits for a teleport to show before walking instead. */
const TELEPORT_WAIT_MS = 3000;
/** Time a `/spawn` may take to join or respawn. */
const RESPAWN_TIMEOUT_MS = 10_000;

/** The longest an HTTP command takes to answer: `/spawn` joining (or respawning), then the teleport wait. */
export function longestCommandMs(connectTimeoutMs: number): number {
  return Math.max(connectTimeoutMs, RESPAWN_TIMEOUT_MS) + TELEPORT_WAIT_MS;
}
/** How often the players within the chat radius are checked for the `player` events. */
const NEARBY_POLL_MS = 500;

/**
 * The NPC service (NPC entity management): holds the rules behind the endpoints and the tools.
 * Routes only delegate here; the game itself sits behind `GameAdapter`.
 */
export class Npc {
  readonly machine: BehaviourStateMachine;
  readonly events = new EventHub();
  readonly #budget: LlmBudget;
  readonly #nearby = new Set<string>();
  readonly #nearbyTimer: NodeJS.Timeout;
  readonly #supervisor: ConnectionSupervisor;
  readonly #outbox: ChatOutbox;
  readonly #conversation: Conversation;
  readonly #health: GatewayHealth;
  readonly #startedAt = Date.now();
  readonly #unsubscribe: (() => void)[] = [];
  /** Until when (epoch ms) the last operator command holds the NPC against players' tool calls. */
  #heldUntil = 0;
  /** What players' tool calls drive: the same rules as HTTP, but refused while an operator holds it. */
  readonly #forPlayers: NpcActions = {
    move: (command) => this.#asPlayer(() => this.#move(command, 'player')),
    look: (target) => this.#asPlayer(() => this.#look(target)),
    emote: (params) => this.#asPlayer(() => this.#emote(params)),
    playerPosition: (name) => this.playerPosition(name),
  };

  constructor(
    private readonly game: GameAdapter,
    gateway: LlmGateway,
    private readonly options: NpcOptions,
    private readonly logger: Logger,
    telemetry: Telemetry = NO_TELEMETRY,
  ) {
    this.machine = new BehaviourStateMachine(game);
    this.#budget = new LlmBudget(options.llmConcurrency, options.llmDailyTokens);
    this.#supervisor = new ConnectionSupervisor(
      game,
      this.machine,
      {
        minDelayMs: options.reconnectMinMs,
        maxDelayMs: options.reconnectMaxMs,
        connectTimeoutMs: options.connectTimeoutMs,
      },
      logger,
      (report) => {
        this.events.publish('connection', {
          status: report.status,
          attempt: report.attempt,
          reason: report.reason,
        });
        if (report.reconnected) telemetry.reconnect();
      },
    );
    this.#outbox = new ChatOutbox(game, {
      onDropped: (count, whisperTo) => {
        telemetry.chatLinesDropped(count);
        this.events.publish('chat_dropped', { lines: count, whisper_to: whisperTo, reason: 'backlog_full' });
        logger.warn({ lines: count }, 'chat backlog full; lines dropped');
      },
    });
    this.#health = new GatewayHealth(gateway.configured, gateway.model);
    this.#conversation = new Conversation(
      game,
      {
        gateway,
        health: this.#health,
        budget: this.#budget,
        outbox: this.#outbox,
        tools: new NpcTools(this.#forPlayers, {
          enabled: options.tools,
          allowedPlayers: options.toolPlayers,
        }),
        events: this.events,
        telemetry,
      },
      {
        npcName: options.npcName,
        radius: options.chatRadius,
        systemPrompt: options.systemPrompt,
        memoryTurns: options.memoryTurns,
        repliesPerMinute: options.repliesPerMinute,
        maxToolCalls: options.maxToolCalls,
        maxQuickExchanges: options.maxQuickExchanges,
        ignoredPlayers: options.ignoredPlayers,
        perceptionRadius: Math.min(16, options.worldRadiusMax),
        reply: { maxChars: options.replyMaxChars, maxLines: options.replyMaxLines },
      },
      logger,
    );
    this.#unsubscribe.push(
      game.onEvent((event) => {
        if (event.type === 'chat') this.#conversation.hear(event.chat);
        else if (event.type === 'died') logger.info({}, 'NPC died');
      }),
      this.#conversation.onComposing(() => void this.#startTalking('conversation')),
      this.machine.onStateChange((to, from) => {
        this.events.publish('state', { from, to });
        if (to === 'offline') this.#updateNearby([]);
      }),
      this.machine.onGoal((goal) =>
        this.events.publish('goal', {
          id: goal.id,
          kind: goal.kind,
          target: goal.target,
          status: goal.status,
          error: goal.error,
        }),
      ),
    );
    this.#nearbyTimer = setInterval(() => {
      if (this.#spawned()) this.#updateNearby(game.nearbyPlayers(options.chatRadius).map((p) => p.name));
    }, NEARBY_POLL_MS);
    this.#nearbyTimer.unref();
  }

  /** Joins the world in the background when NPC_AUTO_SPAWN is on. */
  start(): void {
    if (this.options.autoSpawn) this.#supervisor.start();
  }

  async close(): Promise<void> {
    clearInterval(this.#nearbyTimer);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#conversation.close();
    await this.machine.stop();
    await this.#supervisor.close();
  }

  /** `POST /spawn`: join (or respawn); with a position, teleport where allowed, else walk. */
  async spawn(
    position: Position | null,
  ): Promise<{ action: SpawnAction; state: NpcState; position: Position; goal: GoalRecord | null }> {
    this.#hold();
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
    this.#hold();
    return this.#move(command, 'operator');
  }

  async #move(
    command: MoveCommand,
    by: 'operator' | 'player',
  ): Promise<{ state: NpcState; goal: GoalRecord | null }> {
    this.#requireSpawned();
    if (command.kind === 'stop') {
      const goal = await this.machine.stop();
      return { state: this.machine.state, goal };
    }
    if (command.kind === 'follow') {
      if (!this.game.locate({ player: command.player })) {
        throw new NotFound(`player ${command.player} is not in view`);
      }
      // A player's follow is on a leash and expires sooner; an operator's is theirs to stop.
      const { goal } = await this.machine.start(following, {
        player: command.player,
        distance: command.distance,
        timeoutMs: by === 'player' ? this.options.toolFollowTimeoutMs : this.options.followTimeoutMs,
        leash:
          by === 'player'
            ? { from: { ...this.game.self().position }, radius: this.options.followLeash }
            : null,
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
    this.#hold();
    this.#requireSpawned();
    const lines = splitChat(message, this.game.chatLimitFor(null));
    if (lines.length === 0) throw invalidField('message', 'must contain visible text');
    if (this.#outbox.enqueue(lines, null, true).length === 0) {
      throw new TooManyRequests('the NPC has too much left to say; try again in a little while');
    }
    this.events.publish('reply', { player: null, lines, whisper: false });
    await this.#startTalking('chat');
    return { state: this.machine.state, lines };
  }

  /** `POST /look`: turns the head; refused while a movement steers it. */
  async look(target: LookTarget): Promise<{ state: NpcState; yaw: number; pitch: number }> {
    this.#hold();
    return this.#look(target);
  }

  async #look(target: LookTarget): Promise<{ state: NpcState; yaw: number; pitch: number }> {
    this.#requireSpawned();
    const state = this.machine.state;
    if (state === 'moving' || state === 'following' || state === 'emoting') {
      throw new Conflict(`cannot look while ${state}; stop first`, { state });
    }
    this.#requireVisible(target, 'target');
    await this.game.look(target);
    const self = this.game.self();
    return { state: this.machine.state, yaw: round(self.yaw, 1), pitch: round(self.pitch, 1) };
  }

  /** `POST /emote`: plays one emote and answers when it is over. */
  async emote(params: EmoteParams): Promise<{ state: NpcState; goal: GoalRecord }> {
    this.#hold();
    return this.#emote(params);
  }

  async #emote(params: EmoteParams): Promise<{ state: NpcState; goal: GoalRecord }> {
    this.#requireSpawned();
    if (params.target) this.#requireVisible(params.target, 'target');
    const { done } = await this.machine.start(emoting, params);
    const goal = await done;
    return { state: this.machine.state, goal };
  }

  /** `GET /health`: the process answers; whether the NPC is in the game. */
  health(): { status: 'ok'; connected: boolean; state: NpcState; uptime_s: number } {
    return {
      status: 'ok',
      connected: this.#spawned(),
      state: this.machine.state,
      uptime_s: Math.round((Date.now() - this.#startedAt) / 1000),
    };
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
      llm: this.#budget.status(),
      uptime_s: Math.round((Date.now() - this.#startedAt) / 1000),
    };
  }

  /** `GET /world`: perception within `radius` (capped at NPC_WORLD_RADIUS_MAX). */
  world(radius: number): NpcWorld {
    this.#requireSpawned();
    const capped = Math.min(radius, this.options.worldRadiusMax);
    const recent = this.#conversation.recentChat.map((chat) => ({
      ...chat,
      at: new Date(chat.at).toISOString(),
    }));
    return { radius: capped, ...this.game.perceive(capped), recent_chat: recent };
  }

  /** Where a player in view stands, for tools that walk to a player. */
  playerPosition(name: string): Position | null {
    return this.#spawned() ? this.game.locate({ player: name }) : null;
  }

  /** Publishes `player` events for names that entered or left the chat radius. */
  #updateNearby(names: readonly string[]): void {
    const now = new Set(names);
    for (const name of this.#nearby) {
      if (!now.has(name)) {
        this.#nearby.delete(name);
        this.events.publish('player', { name, status: 'left' });
      }
    }
    for (const name of now) {
      if (!this.#nearby.has(name)) {
        this.#nearby.add(name);
        this.events.publish('player', { name, status: 'joined' });
      }
    }
  }

  /** An operator's command: players' tool calls are refused for the next NPC_OPERATOR_HOLD_MS. */
  #hold(): void {
    this.#heldUntil = Math.max(this.#heldUntil, Date.now() + this.options.operatorHoldMs);
  }

  async #asPlayer<T>(action: () => Promise<T>): Promise<T> {
    const left = this.#heldUntil - Date.now();
    if (left > 0) {
      throw new Conflict(`an operator is steering the NPC for another ${Math.ceil(left / 1000)} s`, {
        state: this.machine.state,
      });
    }
    return action();
  }

  #spawned(): boolean {
    const state = this.machine.state;
    return state !== 'offline' && state !== 'connecting' && this.game.isConnected();
  }

  #requireSpawned(): void {
    if (!this.#spawned())
      throw new Conflict('the NPC is not in the world; POST /spawn first', { state: this.machine.state });
  }

  #requireVisible(target: LookTarget, field: string): void {
    if (target.kind === 'player' && !this.game.locate({ player: target.name })) {
      throw new NotFound(`${field}: player ${target.name} is not in view`);
    }
    if (target.kind === 'entity' && !this.game.locate({ entity: target.id })) {
      throw new NotFound(`${field}: entity ${target.id} is not in view`);
    }
  }

  #checkDistance(position: Position): void {
    if (!this.game.isConnected()) return;
    const away = distance(this.game.self().position, position);
    if (away > this.options.maxMoveDistance) {
      throw invalidField(
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
