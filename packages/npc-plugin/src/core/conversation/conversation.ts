import { SlidingWindow } from '../../shared/sliding-window.js';
import type { ChatOutbox } from '../chat-outbox.js';
import { type ReplyLimits, replyLines, stripFormatting } from '../chat-text.js';
import type { EventHub } from '../events/event-hub.js';
import type { ChatEvent, GameAdapter } from '../game.js';
import type { GatewayHealth } from '../gateway/gateway-health.js';
import { BudgetExhaustedError, type LlmBudget } from '../gateway/llm-budget.js';
import { type ChatMessage, type Completion, GatewayError, type LlmGateway } from '../gateway/llm-gateway.js';
import { summarisePerception } from '../perception-summary.js';
import type { Telemetry } from '../telemetry.js';
import type { NpcTools } from '../tools/npc-tools.js';
import { judgeChat } from './chat-filter.js';
import { LoopBreaker } from './loop-breaker.js';
import { ConversationMemory } from './memory.js';
import { buildPrompt } from './prompt.js';

/** Said when the gateway fails: short, fixed, in character; the error goes to `/status` only. */
export const FALLBACK_LINE = 'Hmm, my head is all foggy right now... ask me again in a little while.';
/** Said in offline mode (no LLM_BASE_URL), clearly labelled as such. */
export const OFFLINE_LINE = '[offline] I cannot think right now: no language model is connected to me.';
/** Said instead of asking the gateway once the day's token budget is spent. */
export const BUDGET_LINE = 'I have talked myself hoarse today... come back tomorrow, friend.';

/** How many heard lines `/world` keeps. */
export const CHAT_LOG_SIZE = 20;
/** Rounds of tool calls the model may make for one player line before it must answer in text. */
export const MAX_TOOL_ROUNDS = 3;

export interface ConversationOptions {
  npcName: string;
  radius: number;
  systemPrompt: string;
  memoryTurns: number;
  repliesPerMinute: number;
  ignoredPlayers: readonly string[];
  /** Most tool calls run from one model answer; the rest come back refused. */
  maxToolCalls: number;
  /** Quick exchanges in a row with one speaker before the NPC stops answering them (loop breaker). */
  maxQuickExchanges: number;
  /** Radius of the perception summary put into the prompt. */
  perceptionRadius: number;
  reply: Omit<ReplyLimits, 'lineLimit'>;
}

export interface ConversationParts {
  gateway: LlmGateway;
  health: GatewayHealth;
  budget: LlmBudget;
  outbox: ChatOutbox;
  tools: NpcTools;
  events: EventHub;
  telemetry: Telemetry;
}

interface Logger {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Listens to nearby chat and whispers and answers through the gateway: one request in flight per
 * player (a newer line waits, replacing an older waiting one), a per-player reply limit, memory of the
 * last turns, up to MAX_TOOL_ROUNDS rounds of tool calls, replies capped and split to the chat limit.
 */
export class Conversation {
  readonly #memory: ConversationMemory;
  readonly #limiter: SlidingWindow;
  readonly #loops: LoopBreaker;
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #waiting = new Map<string, ChatEvent>();
  readonly #log: ChatEvent[] = [];
  readonly #shutdown = new AbortController();
  readonly #busyListeners = new Set<() => void>();

  constructor(
    private readonly game: GameAdapter,
    private readonly parts: ConversationParts,
    private readonly options: ConversationOptions,
    private readonly logger: Logger,
  ) {
    this.#memory = new ConversationMemory(options.memoryTurns);
    this.#limiter = new SlidingWindow(options.repliesPerMinute, 60_000);
    this.#loops = new LoopBreaker(options.maxQuickExchanges);
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
      else if (this.parts.outbox.busy) await Promise.race([this.parts.outbox.idle(), stopped]);
      else return;
    }
  }

  hear(heard: ChatEvent): void {
    const event = { ...heard, message: stripFormatting(heard.message) };
    if (event.username.toLowerCase() !== this.options.npcName.toLowerCase()) {
      this.#log.push(event);
      if (this.#log.length > CHAT_LOG_SIZE) this.#log.shift();
      this.parts.events.publish('chat', {
        player: event.username,
        message: event.message,
        distance: event.distance === null ? null : Math.round(event.distance * 100) / 100,
        whisper: event.whisper,
      });
    }
    const verdict = judgeChat(
      event,
      { ...this.options, ownName: this.options.npcName },
      this.parts.outbox.recentLines,
    );
    if (!verdict.reply) {
      this.logger.debug({ player: event.username, reason: verdict.reason }, 'not answering');
      return;
    }
    if (!this.#loops.allow(event.username, event.at)) {
      this.logger.debug(
        { player: event.username },
        'quick exchanges in a row; not answering until they pause',
      );
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

  /** Says a reply: capped, split, gated and queued; returns the lines queued, as they will be heard. */
  #reply(event: ChatEvent, text: string, kind: 'answer' | 'fallback' | 'budget' | 'offline'): string[] {
    const whisper = event.whisper;
    const to = whisper ? event.username : null;
    const capped = replyLines(text, { ...this.options.reply, lineLimit: this.game.chatLimitFor(to) });
    const lines = this.parts.outbox.enqueue(capped, to);
    if (lines.length === 0) return lines;
    this.#loops.replied(event.username, Date.now());
    this.parts.events.publish('reply', { player: event.username, lines, whisper });
    this.parts.telemetry.reply(kind);
    return lines;
  }

  async #compose(event: ChatEvent): Promise<void> {
    const { gateway, health, budget, telemetry } = this.parts;
    if (!gateway.configured) {
      this.#reply(event, OFFLINE_LINE, 'offline');
      return;
    }
    if (budget.exhausted) {
      this.#reply(event, BUDGET_LINE, 'budget');
      return;
    }
    let perception = '- (perception unavailable)';
    if (this.game.isConnected())
      perception = summarisePerception(this.game.perceive(this.options.perceptionRadius));
    const tools = this.parts.tools.definitions;
    const messages: ChatMessage[] = buildPrompt({
      template: this.options.systemPrompt,
      npcName: this.options.npcName,
      player: event.username,
      whisper: event.whisper,
      perception,
      tools: tools.length > 0,
      history: this.#memory.history(event.username),
      message: event.message,
    });
    try {
      for (let round = 0; ; round++) {
        // After the last tool round the model still sees the tools but must answer in text.
        const toolChoice = round < MAX_TOOL_ROUNDS ? 'auto' : 'none';
        const completion = await this.#complete({ messages, tools, toolChoice });
        if (completion.toolCalls.length === 0 || toolChoice === 'none') {
          if (completion.content === null)
            throw new GatewayError('bad_response', 'gateway answer has no message content');
          // The memory keeps what the player heard, not the raw completion: the model's next turn must
          // not build on text that was cut off, gated out or never said.
          const said = this.#reply(event, completion.content, 'answer');
          if (said.length > 0) this.#memory.remember(event.username, event.message, said.join(' '));
          return;
        }
        messages.push({ role: 'assistant', content: completion.content, tool_calls: completion.toolCalls });
        for (const [index, call] of completion.toolCalls.entries()) {
          const { result, outcome } =
            index < this.options.maxToolCalls
              ? await this.parts.tools.call(event.username, call)
              : {
                  result: {
                    ok: false,
                    error: `not run: at most ${this.options.maxToolCalls} actions per answer`,
                  },
                  outcome: 'refused' as const,
                };
          telemetry.toolCall(call.function.name, outcome);
          // The result is JSON data; the system prompt tells the model it is never an instruction.
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
        }
      }
    } catch (error) {
      if (error instanceof BudgetExhaustedError) {
        this.#reply(event, BUDGET_LINE, 'budget');
        return;
      }
      const typed =
        error instanceof GatewayError
          ? error
          : new GatewayError('bad_response', String(error), null, { cause: error });
      if (typed.code === 'aborted') return;
      health.failure(typed);
      this.logger.warn({ code: typed.code, status: typed.status, message: typed.message }, 'gateway failed');
      this.#reply(event, FALLBACK_LINE, 'fallback');
    }
  }

  /** One gateway request within the concurrency cap and the daily budget, timed and counted. */
  async #complete(request: Parameters<LlmGateway['complete']>[0]): Promise<Completion> {
    const { gateway, health, budget, telemetry } = this.parts;
    return budget.run(async () => {
      const started = performance.now();
      try {
        const completion = await gateway.complete(request, this.#shutdown.signal);
        telemetry.gatewayRequest((performance.now() - started) / 1000, 'ok');
        budget.record(completion.usage);
        if (completion.usage) telemetry.tokens(completion.usage.total_tokens);
        health.success();
        return completion;
      } catch (error) {
        const code = error instanceof GatewayError ? error.code : 'bad_response';
        telemetry.gatewayRequest((performance.now() - started) / 1000, code);
        throw error;
      }
    });
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
