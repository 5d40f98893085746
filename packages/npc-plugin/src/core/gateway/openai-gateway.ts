import { setTimeout as sleep } from 'node:timers/promises';
import { type Deadline, deadline } from '../../shared/deadline.js';
import { backoffDelay } from '../backoff.js';
import { type ChatMessage, GatewayError, isRetryableStatus, type LlmGateway } from './llm-gateway.js';

export interface OpenAiGatewayOptions {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** Per attempt; issue 6 fixes it at 20 s by default. */
  timeoutMs: number;
  maxRetries: number;
  retryMinDelayMs?: number;
  retryMaxDelayMs?: number;
  maxTokens?: number;
}

interface CompletionBody {
  choices?: { message?: { content?: unknown } }[];
}

/**
 * Client of an OpenAI-compatible gateway such as a LiteLLM proxy: `POST {base}/chat/completions`.
 * Retries with backoff only on 408, 429 and 5xx (honouring a short Retry-After); a timeout, a network
 * error or any other status fails at once.
 */
export class OpenAiGateway implements LlmGateway {
  readonly configured = true;
  readonly model: string;

  constructor(private readonly options: OpenAiGatewayOptions) {
    this.model = options.model;
  }

  async complete(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const { maxRetries, retryMinDelayMs = 250, retryMaxDelayMs = 4000 } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(messages, signal);
      } catch (error) {
        const retryable =
          error instanceof GatewayError && error.status !== null && isRetryableStatus(error.status);
        if (!retryable || attempt >= maxRetries || signal.aborted) throw error;
        const delay = Math.min(
          retryMaxDelayMs,
          error.retryAfterMs ?? backoffDelay(attempt + 1, retryMinDelayMs, retryMaxDelayMs),
        );
        await sleep(delay, undefined, { signal }).catch(() => {
          throw new GatewayError('aborted', 'request aborted');
        });
      }
    }
  }

  async #attempt(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const guard = deadline(signal, this.options.timeoutMs);
    try {
      return await this.#send(messages, guard, signal);
    } finally {
      guard.clear();
    }
  }

  async #send(messages: readonly ChatMessage[], guard: Deadline, signal: AbortSignal): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.options.model,
          messages,
          max_tokens: this.options.maxTokens ?? 200,
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
      text = await response.text();
    } catch (cause) {
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
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      throw new GatewayError('bad_response', 'gateway answer has no message content', response.status);
    }
    return content.trim();
  }
}

/** Offline mode (no LLM_BASE_URL): every request fails at once with a typed error. */
export class OfflineGateway implements LlmGateway {
  readonly configured = false;
  constructor(readonly model: string) {}
  complete(): Promise<string> {
    return Promise.reject(new GatewayError('not_configured', 'LLM_BASE_URL is not set'));
  }
}
