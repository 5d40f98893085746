/** LLM providers sit behind this one interface (one adapter per provider, one typed error). */

/** A function the model asked to call; `arguments` is JSON text as the model wrote it. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An OpenAI-style function definition; `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One turn of a remembered conversation: what a player said, what the NPC answered. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | ChatTurn
  | { role: 'assistant'; content: string | null; tool_calls: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface CompletionRequest {
  messages: readonly ChatMessage[];
  /** Functions the model may call; none sent when empty. */
  tools?: readonly ToolDefinition[];
  /** `none` makes the model answer in text although tools are listed. */
  toolChoice?: 'auto' | 'none';
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Completion {
  /** The text answer; may be null when the model only calls tools. */
  content: string | null;
  toolCalls: ToolCall[];
  /** As the gateway reported it; null when it did not. */
  usage: TokenUsage | null;
}

export interface LlmGateway {
  /** True when a real gateway is configured; false in offline mode (no LLM_BASE_URL). */
  readonly configured: boolean;
  readonly model: string;
  complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion>;
}

export type GatewayErrorCode =
  | 'timeout'
  | 'http_status'
  | 'network'
  | 'bad_response'
  | 'too_large'
  | 'not_configured'
  | 'aborted';

/** A typed gateway failure: answered in chat by a fixed line, shown in `/status`. */
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

/** Only these statuses are worth another try: timeouts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}
