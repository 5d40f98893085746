import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@plants/common/backoff';
import { type Deadline, deadline } from '../../shared/deadline.js';
import {
  type Completion,
  type CompletionRequest,
  GatewayError,
  isRetryableStatus,
  type LlmGateway,
  type TokenUsage,
  type ToolCall,
} from './llm-gateway.js';

export interface OpenAiGatewayOptions {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** Per attempt (20 s by default). */
  timeoutMs: number;
  maxRetries: number;
  /** Largest answer body read; a larger one is cut off and fails as `too_large`. */
  maxResponseBytes: number;
  retryMinDelayMs?: number;
  retryMaxDelayMs?: number;
  maxTokens?: number;
}

interface CompletionBody {
  choices?: { message?: { content?: unknown; tool_calls?: unknown } }[];
  usage?: unknown;
}

/**
 * Client of an OpenAI-compatible gateway such as a LiteLLM proxy: `POST {base}/chat/completions`.
 * Retries with backoff only on 408, 429 and 5xx (honouring a short Retry-After); a timeout, a network
 * error or any other status fails at once. The answer body is read up to `maxResponseBytes` only.
 */
export class OpenAiGateway implements LlmGateway {
  readonly configured = true;
  readonly model: string;

  constructor(private readonly options: OpenAiGatewayOptions) {
    this.model = options.model;
  }

  async complete(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const { maxRetries, retryMinDelayMs = 250, retryMaxDelayMs = 4000 } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(request, signal);
      } catch (error) {
        const retryable =
          error instanceof GatewayError && error.status !== null && isRetryableStatus(error.status);
        if (!retryable || attempt >= maxRetries || signal.aborted) throw error;
        const delay = Math.min(
          retryMaxDelayMs,
          error.retryAfterMs ??
            backoffDelay(attempt + 1, { firstMs: retryMinDelayMs, maxMs: retryMaxDelayMs }),
        );
        await sleep(delay, undefined, { signal }).catch(() => {
          throw new GatewayError('aborted', 'request aborted');
        });
      }
    }
  }

  async #attempt(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const guard = deadline(signal, this.options.timeoutMs);
    try {
      return await this.#send(request, guard, signal);
    } finally {
      guard.clear();
    }
  }

  async #send(request: CompletionRequest, guard: Deadline, signal: AbortSignal): Promise<Completion> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const tools = request.tools && request.tools.length > 0 ? request.tools : null;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.options.model,
          messages: request.messages,
          max_tokens: this.options.maxTokens ?? 200,
          ...(tools ? { tools, tool_choice: request.toolChoice ?? 'auto' } : {}),
        }),
        signal: guard.signal,
      });
    } catch (cause) {
      if (guard.timedOut())
        throw new GatewayError('timeout', `no answer within ${this.options.timeoutMs} ms`, null, { cause });
      if (signal.aborted) throw new GatewayError('aborted', 'request aborted', null, { cause });
      throw new GatewayError('network', `gateway unreachable: ${(cause as Error).message}`, null, { cause });
    }
    let text: string;
    try {
      text = await readLimited(response, this.options.maxResponseBytes);
    } catch (cause) {
      if (cause instanceof GatewayError) throw cause;
      const code = guard.timedOut() ? 'timeout' : 'network';
      throw new GatewayError(code, `reading the answer failed: ${(cause as Error).message}`, null, { cause });
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new GatewayError('http_status', `gateway answered ${response.status}`, response.status, {
        retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
      });
    }
    let body: CompletionBody;
    try {
      body = JSON.parse(text) as CompletionBody;
    } catch (cause) {
      throw new GatewayError('bad_response', 'gateway answer is not JSON', response.status, { cause });
    }
    const message = body.choices?.[0]?.message;
    const content =
      typeof message?.content === 'string' && message.content.trim() !== '' ? message.content.trim() : null;
    const toolCalls = parseToolCalls(message?.tool_calls);
    if (toolCalls === null)
      throw new GatewayError('bad_response', 'gateway answer has malformed tool_calls', response.status);
    if (content === null && toolCalls.length === 0) {
      throw new GatewayError('bad_response', 'gateway answer has no message content', response.status);
    }
    return { content, toolCalls, usage: parseUsage(body.usage) };
  }
}

/** Reads a body as text, cancelling the download once it passes `limit` bytes. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body.cancel().catch(() => undefined);
    throw new GatewayError(
      'too_large',
      `gateway answer is ${declared} bytes; the limit is ${limit}`,
      response.status,
    );
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new GatewayError('too_large', `gateway answer is over the ${limit}-byte limit`, response.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Tool calls as OpenAI sends them; null when present but malformed. */
function parseToolCalls(value: unknown): ToolCall[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const calls: ToolCall[] = [];
  for (const item of value) {
    const call = item as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const name = call.function?.name;
    const args = call.function?.arguments;
    if (typeof call.id !== 'string' || typeof name !== 'string') return null;
    calls.push({
      id: call.id,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
    });
  }
  return calls;
}

function parseUsage(value: unknown): TokenUsage | null {
  const usage = value as Partial<Record<keyof TokenUsage, unknown>> | undefined;
  const count = (n: unknown) =>
    typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
  const prompt = count(usage?.prompt_tokens) ?? 0;
  const completion = count(usage?.completion_tokens) ?? 0;
  const total = count(usage?.total_tokens) ?? (usage ? prompt + completion : null);
  if (total === null) return null;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** Offline mode (no LLM_BASE_URL): every request fails at once with a typed error. */
export class OfflineGateway implements LlmGateway {
  readonly configured = false;
  constructor(readonly model: string) {}
  complete(): Promise<Completion> {
    return Promise.reject(new GatewayError('not_configured', 'LLM_BASE_URL is not set'));
  }
}
