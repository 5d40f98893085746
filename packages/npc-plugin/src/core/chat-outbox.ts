import { setTimeout as sleep } from 'node:timers/promises';
import { CHAT_BACKLOG, ChatGovernor, type ChatRate, DEFAULT_CHAT_RATE } from './chat-governor.js';
import { safeLine } from './chat-splitter.js';
import type { GameAdapter } from './game.js';

/** Least pause between two chat lines, so split messages arrive in order. */
export const LINE_PAUSE_MS = 150;

interface Line {
  text: string;
  whisperTo: string | null;
}

export interface ChatOutboxOptions {
  rate: ChatRate;
  /** Most lines waiting at once; lines beyond it are dropped. */
  backlog: number;
  /** Called with the number of lines dropped from one `enqueue` because the backlog was full. */
  onDropped: (count: number, whisperTo: string | null) => void;
}

/**
 * The NPC's mouth: one serial queue for every chat line, paced by the chat governor and bounded.
 * Each line passes the chat gate (`safeLine`) right before it is sent, whatever queued it. Lines
 * queued while the NPC is offline are dropped, not replayed after a reconnect. The last lines said
 * are kept for the conversation's echo check.
 */
export class ChatOutbox {
  readonly #queue: Line[] = [];
  readonly #recent: string[] = [];
  readonly #idleWaiters = new Set<() => void>();
  readonly #governor: ChatGovernor;
  readonly #options: ChatOutboxOptions;
  #draining = false;

  constructor(
    private readonly game: GameAdapter,
    options: Partial<ChatOutboxOptions> = {},
  ) {
    this.#options = {
      rate: DEFAULT_CHAT_RATE,
      backlog: CHAT_BACKLOG,
      onDropped: () => undefined,
      ...options,
    };
    this.#governor = new ChatGovernor(this.#options.rate);
  }

  get busy(): boolean {
    return this.#draining || this.#queue.length > 0;
  }

  /** What the NPC said most recently, oldest first. */
  get recentLines(): readonly string[] {
    return this.#recent;
  }

  /**
   * Queues lines in order; returns those accepted (the rest did not fit in the backlog). `whole`
   * takes all the lines or none.
   */
  enqueue(lines: readonly string[], whisperTo: string | null = null, whole = false): string[] {
    const room = Math.max(0, this.#options.backlog - this.#queue.length);
    const accepted = whole && lines.length > room ? [] : lines.slice(0, room);
    for (const text of accepted) this.#queue.push({ text, whisperTo });
    if (accepted.length < lines.length) this.#options.onDropped(lines.length - accepted.length, whisperTo);
    if (!this.#draining && this.#queue.length > 0) void this.#drain();
    return accepted;
  }

  /** Resolves when the queue is empty (at once if it is). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.add(resolve));
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      let first = true;
      // A line stays in the queue (and counts against the backlog) until it is sent or dropped.
      for (let line = this.#queue[0]; line; this.#queue.shift(), line = this.#queue[0]) {
        if (!this.game.isConnected()) continue;
        if (!first) await sleep(LINE_PAUSE_MS);
        first = false;
        for (let wait = this.#governor.delay(Date.now()); wait > 0; wait = this.#governor.delay(Date.now())) {
          await sleep(wait);
        }
        if (!this.game.isConnected()) continue;
        const text = safeLine(line.text, this.game.chatLimitFor(line.whisperTo));
        if (text === null) continue;
        this.#governor.take(Date.now());
        if (line.whisperTo) this.game.whisper(line.whisperTo, text);
        else this.game.say(text);
        this.#recent.push(text);
        if (this.#recent.length > 10) this.#recent.shift();
      }
    } finally {
      this.#draining = false;
      for (const resolve of this.#idleWaiters) resolve();
      this.#idleWaiters.clear();
    }
  }
}
