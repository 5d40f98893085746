import { SlidingWindow } from '../../shared/sliding-window.js';
import type { ChatOutbox } from '../chat-outbox.js';
import { splitChat } from '../chat-splitter.js';
import type { ChatEvent, GameAdapter } from '../game.js';
import type { GatewayHealth } from '../gateway/gateway-health.js';
import { GatewayError, type LlmGateway } from '../gateway/llm-gateway.js';
import { summarisePerception } from '../perception-summary.js';
import { judgeChat } from './chat-filter.js';
import { ConversationMemory } from './memory.js';
import { buildPrompt } from './prompt.js';

/** Said when the gateway fails: short, fixed, in character; the error goes to `/status` only. */
export const FALLBACK_LINE = 'Hmm, my head is all foggy right now... ask me again in a little while.';
/** Said in offline mode (no LLM_BASE_URL), clearly labelled as such (issue 6, demo). */
export const OFFLINE_LINE = '[offline] I cannot think right now: no language model is connected to me.';

/** How many heard lines `/world` keeps. */
export const CHAT_LOG_SIZE = 20;

export interface ConversationOptions {
  npcName: string;
  radius: number;
  systemPrompt: string;
  memoryTurns: number;
  repliesPerMinute: number;
  ignoredPlayers: readonly string[];
  /** Radius of the perception summary put into the prompt. */
  perceptionRadius: number;
}

interface Logger {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Listens to nearby chat and whispers and answers through the gateway (issue 6, Conversation): one
 * request in flight per player (a newer line waits, replacing an older waiting one), a per-player
 * reply limit, memory of the last turns, replies split to the chat limit.
 */
export class Conversation {
  readonly #memory: ConversationMemory;
  readonly #limiter: SlidingWindow;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #waiting = new Map<string, ChatEvent>();
  readonly #log: ChatEvent[] = [];
  readonly #shutdown = new AbortController();
  readonly #busyListeners = new Set<() => void>();

  constructor(
    private readonly game: GameAdapter,
    private readonly gateway: LlmGateway,
    private readonly health: GatewayHealth,
    private readonly outbox: ChatOutbox,
    private readonly options: ConversationOptions,
    private readonly logger: Logger,
  ) {
    this.#memory = new ConversationMemory(options.memoryTurns);
    this.#limiter = new SlidingWindow(options.repliesPerMinute, 60_000);
  }

  /** Recent chat lines heard (oldest first), for `/world`. */
  get recentChat(): readonly ChatEvent[] {
    return this.#log;
  }

  /** True while a reply is being composed for anyone. */
  get composing(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Called when a reply starts being composed, so the NPC can show it is talking. */
  onComposing(listener: () => void): () => void {
    this.#busyListeners.add(listener);
    return () => this.#busyListeners.delete(listener);
  }

  /** Resolves when no reply is being composed and nothing waits to be said. */
  async quiet(signal: AbortSignal): Promise<void> {
    const stopped = aborted(signal);
    // Each turn waits on something still pending: a reply being composed (which, when done, queues
    // its lines), then the outbox emptying.
    while (!signal.aborted) {
      if (this.composing) await Promise.race([Promise.allSettled([...this.#inFlight.values()]), stopped]);
      else if (this.outbox.busy) await Promise.race([this.outbox.idle(), stopped]);
      else return;
    }
  }

  hear(event: ChatEvent): void {
    if (event.username.toLowerCase() !== this.options.npcName.toLowerCase()) {
      this.#log.push(event);
      if (this.#log.length > CHAT_LOG_SIZE) this.#log.shift();
    }
    const verdict = judgeChat(
      event,
      { ...this.options, ownName: this.options.npcName },
      this.outbox.recentLines,
    );
    if (!verdict.reply) {
      this.logger.debug({ player: event.username, reason: verdict.reason }, 'not answering');
      return;
    }
    if (this.#inFlight.has(event.username)) {
      this.#waiting.set(event.username, event);
      return;
    }
    this.#answer(event);
  }

  close(): void {
    this.#shutdown.abort();
  }

  #answer(event: ChatEvent): void {
    if (!this.#limiter.tryHit(event.username)) {
      this.logger.debug({ player: event.username }, 'reply limit reached; not answering');
      return;
    }
    const task = this.#compose(event).finally(() => {
      this.#inFlight.delete(event.username);
      const next = this.#waiting.get(event.username);
      this.#waiting.delete(event.username);
      if (next && !this.#shutdown.signal.aborted) this.#answer(next);
    });
    this.#inFlight.set(event.username, task);
    for (const listener of this.#busyListeners) listener();
  }

  async #compose(event: ChatEvent): Promise<void> {
    const reply = (text: string) =>
      this.outbox.enqueue(splitChat(text, this.game.chatLimit), event.whisper ? event.username : null);
    if (!this.gateway.configured) {
      reply(OFFLINE_LINE);
      return;
    }
    let perception = '- (perception unavailable)';
    if (this.game.isConnected())
      perception = summarisePerception(this.game.perceive(this.options.perceptionRadius));
    const messages = buildPrompt({
      template: this.options.systemPrompt,
      npcName: this.options.npcName,
      player: event.username,
      whisper: event.whisper,
      perception,
      history: this.#memory.history(event.username),
      message: event.message,
    });
    try {
      const answer = await this.gateway.complete(messages, this.#shutdown.signal);
      this.health.success();
      this.#memory.remember(event.username, event.message, answer);
      reply(answer);
    } catch (error) {
      const typed =
        error instanceof GatewayError
          ? error
          : new GatewayError('bad_response', String(error), null, { cause: error });
      if (typed.code === 'aborted') return;
      this.health.failure(typed);
      this.logger.warn({ code: typed.code, status: typed.status, message: typed.message }, 'gateway failed');
      reply(FALLBACK_LINE);
    }
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
