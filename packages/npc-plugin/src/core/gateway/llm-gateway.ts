/** LLM providers sit behind this one interface (STYLE: mindcraft habit; habit 6). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmGateway {
  /** True when a real gateway is configured; false in offline mode (no LLM_BASE_URL). */
  readonly configured: boolean;
  readonly model: string;
  complete(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string>;
}

export type GatewayErrorCode =
  | 'timeout'
  | 'http_status'
  | 'network'
  | 'bad_response'
  | 'not_configured'
  | 'aborted';

/** A typed gateway failure (STYLE habit 10): answered in chat by a fixed line, shown in `/status`. */
export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }
  /** The gateway's Retry-After, when it sent one. */
  readonly retryAfterMs: number | null;
}

/** Only these statuses are worth another try (issue 6: "retries with backoff only on 408/429/5xx"). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}
