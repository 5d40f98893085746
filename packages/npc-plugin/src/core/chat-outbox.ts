import { setTimeout as sleep } from 'node:timers/promises';
import type { GameAdapter } from './game.js';

/** Pause between two chat lines, so split messages arrive in order and do not trip spam kicks. */
export const LINE_PAUSE_MS = 150;

interface Line {
  text: string;
  whisperTo: string | null;
}

/**
 * The NPC's mouth: one serial queue of chat lines. Lines queued while the NPC is offline are dropped,
 * not replayed after a reconnect. The last lines said are kept for the conversation's echo check.
 */
export class ChatOutbox {
  readonly #queue: Line[] = [];
  readonly #recent: string[] = [];
  readonly #idleWaiters = new Set<() => void>();
  #draining = false;

  constructor(private readonly game: GameAdapter) {}

  get busy(): boolean {
    return this.#draining || this.#queue.length > 0;
  }

  /** What the NPC said most recently, oldest first. */
  get recentLines(): readonly string[] {
    return this.#recent;
  }

  enqueue(lines: readonly string[], whisperTo: string | null = null): void {
    for (const text of lines) this.#queue.push({ text, whisperTo });
    if (!this.#draining) void this.#drain();
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
      for (let line = this.#queue.shift(); line; line = this.#queue.shift()) {
        if (!this.game.isConnected()) continue;
        if (!first) await sleep(LINE_PAUSE_MS);
        first = false;
        if (!this.game.isConnected()) continue;
        if (line.whisperTo) this.game.whisper(line.whisperTo, line.text);
        else this.game.say(line.text);
        this.#recent.push(line.text);
        if (this.#recent.length > 10) this.#recent.shift();
      }
    } finally {
      this.#draining = false;
      for (const resolve of this.#idleWaiters) resolve();
      this.#idleWaiters.clear();
    }
  }
}
