import { backoffDelay } from '@plants/common/backoff';
import { ServiceUnavailable } from '../errors.js';
import { connecting } from './behaviours/connecting.js';
import type { GameAdapter } from './game.js';
import type { BehaviourStateMachine } from './state-machine.js';

export interface ConnectionOptions {
  minDelayMs: number;
  maxDelayMs: number;
  connectTimeoutMs: number;
  /** A connection lost sooner than this after joining counts as a failed attempt (default 30 s). */
  stableAfterMs?: number;
}

/**
 * How long a connection must last before it counts as a success for the backoff: a server that kicks
 * right after the join (a ban, a full server, an anti-bot plugin) is then retried with growing delays,
 * not about once a second.
 */
export const STABLE_AFTER_MS = 30_000;

/** What `/status` shows about the game connection while the NPC is away. */
export interface ConnectionStatus {
  connected: boolean;
  reconnecting: boolean;
  attempts: number;
  next_attempt_at: string | null;
  connected_since: string | null;
  last_disconnect: { reason: string; at: string } | null;
  last_error: string | null;
}

/** A change of the game connection, for the event stream and the metrics. */
export interface ConnectionReport {
  status: 'connecting' | 'connected' | 'disconnected' | 'failed';
  attempt: number;
  reason: string | null;
  /** True when this join follows a lost connection. */
  reconnected: boolean;
}

interface Logger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Keeps the NPC in the world once it is wanted there: connects, and after a kick, an error or a server
 * restart goes offline and retries with exponential backoff until it is back. The backoff grows with
 * failed attempts and with connections lost within `stableAfterMs` of joining, and starts again from
 * the shortest delay once a connection has lasted that long.
 */
export class ConnectionSupervisor {
  #wanted = false;
  #attempts = 0;
  /** Failed attempts and quick drops in a row: what the backoff grows with. */
  #failures = 0;
  #timer: NodeJS.Timeout | null = null;
  #nextAttemptAt: number | null = null;
  #attempt: Promise<void> | null = null;
  #connectedSince: number | null = null;
  #lastDisconnect: { reason: string; at: number } | null = null;
  #lastError: string | null = null;
  readonly #shutdown = new AbortController();
  readonly #unsubscribe: () => void;

  constructor(
    private readonly game: GameAdapter,
    private readonly machine: BehaviourStateMachine,
    private readonly options: ConnectionOptions,
    private readonly log: Logger,
    private readonly report: (report: ConnectionReport) => void = () => undefined,
  ) {
    this.#unsubscribe = game.onEvent((event) => {
      if (event.type === 'disconnected' && this.#connectedSince !== null) this.#lost(event.reason);
    });
  }

  status(): ConnectionStatus {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      connected: this.#connectedSince !== null,
      reconnecting: this.#wanted && this.#connectedSince === null,
      attempts: this.#attempts,
      next_attempt_at: iso(this.#nextAttemptAt),
      connected_since: iso(this.#connectedSince),
      last_disconnect: this.#lastDisconnect
        ? { reason: this.#lastDisconnect.reason, at: new Date(this.#lastDisconnect.at).toISOString() }
        : null,
      last_error: this.#lastError,
    };
  }

  /** Starts keeping the NPC connected, in the background. */
  start(): void {
    this.#wanted = true;
    if (this.#connectedSince === null && this.#attempt === null) void this.#run().catch(() => undefined);
  }

  /**
   * Connects now (skipping any backoff wait) and resolves once the NPC is in the world; rejects with
   * ServiceUnavailable when this attempt fails (the supervisor keeps retrying in the background).
   */
  async connectNow(): Promise<void> {
    this.#wanted = true;
    if (this.#connectedSince !== null) return;
    const attempt = this.#attempt ?? this.#run();
    await attempt.catch((error: unknown) => {
      throw new ServiceUnavailable(`could not join the game server: ${(error as Error).message}`);
    });
  }

  async close(): Promise<void> {
    this.#wanted = false;
    this.#shutdown.abort();
    this.#clearTimer();
    this.#unsubscribe();
    await this.#attempt?.catch(() => undefined);
    this.#connectedSince = null;
    await this.game.disconnect();
    this.machine.setConnectionState('offline');
  }

  #run(): Promise<void> {
    this.#clearTimer();
    this.#attempts += 1;
    const attempt = this.#attempts;
    this.machine.setConnectionState('connecting');
    this.report({ status: 'connecting', attempt, reason: null, reconnected: false });
    const joining = connecting(this.game, this.options.connectTimeoutMs, this.#shutdown.signal).then(
      () => {
        this.#attempt = null;
        this.#attempts = 0;
        this.#lastError = null;
        this.#connectedSince = Date.now();
        this.machine.setConnectionState('idle');
        this.log.info({}, 'NPC joined the game');
        this.report({
          status: 'connected',
          attempt,
          reason: null,
          reconnected: this.#lastDisconnect !== null,
        });
      },
      (error: unknown) => {
        this.#attempt = null;
        this.#failures += 1;
        this.#lastError = (error as Error).message;
        this.machine.setConnectionState('offline');
        this.log.warn({ err: error, attempt }, 'could not join the game');
        this.report({ status: 'failed', attempt, reason: (error as Error).message, reconnected: false });
        this.#schedule();
        throw error;
      },
    );
    this.#attempt = joining;
    return joining;
  }

  #lost(reason: string): void {
    const lasted = Date.now() - (this.#connectedSince ?? Date.now());
    if (lasted < (this.options.stableAfterMs ?? STABLE_AFTER_MS)) this.#failures += 1;
    else this.#failures = 0;
    this.#connectedSince = null;
    this.#lastDisconnect = { reason, at: Date.now() };
    this.machine.setConnectionState('offline');
    this.log.warn({ reason }, 'NPC left the game');
    this.report({ status: 'disconnected', attempt: 0, reason, reconnected: false });
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#wanted || this.#shutdown.signal.aborted) return;
    this.#clearTimer();
    const delay = backoffDelay(this.#failures + 1, {
      firstMs: this.options.minDelayMs,
      maxMs: this.options.maxDelayMs,
    });
    this.#nextAttemptAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#run().catch(() => undefined);
    }, delay);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#nextAttemptAt = null;
  }
}
