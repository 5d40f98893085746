import pLimit, { type LimitFunction } from 'p-limit';
import type { TokenUsage } from './llm-gateway.js';

export interface LlmBudgetStatus {
  /** Requests allowed in flight at once, for all players together. */
  concurrency: number;
  in_flight: number;
  queued: number;
  /** The UTC day the counters below belong to (YYYY-MM-DD); they restart at UTC midnight. */
  day: string;
  requests_today: number;
  tokens_today: number;
  /** NPC_LLM_DAILY_TOKENS; null = unlimited. */
  daily_token_budget: number | null;
  exhausted: boolean;
}

/** Thrown instead of sending a request once the day's tokens are spent. */
export class BudgetExhaustedError extends Error {
  constructor() {
    super('the daily token budget is spent');
  }
}

/**
 * What the NPC may spend on the language model: at most `concurrency` requests in flight for all
 * players together (the rest wait their turn), and at most `dailyTokens` tokens per UTC day, counted
 * from the `usage` the gateway reports. A request whose turn comes after the budget is spent is not sent.
 */
export class LlmBudget {
  readonly #limit: LimitFunction;
  #day: string;
  #requests = 0;
  #tokens = 0;

  constructor(
    concurrency: number,
    private readonly dailyTokens: number | null,
    private readonly now: () => number = Date.now,
  ) {
    this.#limit = pLimit(concurrency);
    this.#day = utcDay(now());
  }

  get exhausted(): boolean {
    this.#rollOver();
    return this.dailyTokens !== null && this.#tokens >= this.dailyTokens;
  }

  /** Runs one gateway request when a slot is free; rejects with BudgetExhaustedError when spent. */
  run<T>(request: () => Promise<T>): Promise<T> {
    return this.#limit(async () => {
      if (this.exhausted) throw new BudgetExhaustedError();
      this.#requests += 1;
      return request();
    });
  }

  record(usage: TokenUsage | null): void {
    this.#rollOver();
    if (usage) this.#tokens += usage.total_tokens;
  }

  status(): LlmBudgetStatus {
    const exhausted = this.exhausted;
    return {
      concurrency: this.#limit.concurrency,
      in_flight: this.#limit.activeCount,
      queued: this.#limit.pendingCount,
      day: this.#day,
      requests_today: this.#requests,
      tokens_today: this.#tokens,
      daily_token_budget: this.dailyTokens,
      exhausted,
    };
  }

  #rollOver(): void {
    const today = utcDay(this.now());
    if (today === this.#day) return;
    this.#day = today;
    this.#requests = 0;
    this.#tokens = 0;
  }
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
