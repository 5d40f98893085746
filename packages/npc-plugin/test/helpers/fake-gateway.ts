import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: RecordedMessage[];
    tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
    tool_choice?: string;
  };
  at: number;
}

/** Tokens the fake reports in `usage` unless a behaviour says otherwise. */
export const DEFAULT_USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

/**
 * What the fake answers next: a reply text (optionally after a delay), tool calls (with optional
 * text), an HTTP status, or nothing at all. `usage` overrides the reported token counts.
 */
export type Behaviour =
  | { reply: string; delayMs?: number; usage?: typeof DEFAULT_USAGE }
  | {
      toolCalls: { name: string; arguments: Record<string, unknown> | string }[];
      content?: string;
      delayMs?: number;
      usage?: typeof DEFAULT_USAGE;
    }
  | { status: number; retryAfter?: number }
  | { hang: true };

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, as a LiteLLM proxy
 * would. Each request takes the next queued behaviour, else the default (an echo of the last line).
 */
export class FakeGateway {
  readonly requests: RecordedRequest[] = [];
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Token counts reported when a behaviour gives none. */
  usage = DEFAULT_USAGE;
  readonly #queue: Behaviour[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #open = new Set<ServerResponse>();
  #server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((request, response) => void this.#handle(request, response));
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
    return this;
  }

  /** Queues behaviours for the next requests. */
  next(...behaviours: Behaviour[]): void {
    this.#queue.push(...behaviours);
  }

  /** Resolves once `count` requests in all have arrived. */
  async waitForRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} gateway requests, got ${this.requests.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  async close(): Promise<void> {
    for (const response of this.#open) response.destroy();
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()) ?? resolve());
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
    this.requests.push({
      path: request.url ?? '',
      authorization: request.headers.authorization,
      body,
      at: Date.now(),
    });
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
    if (request.url !== '/v1/chat/completions' || request.method !== 'POST') {
      response.writeHead(404).end();
      return;
    }
    const last = body.messages.at(-1)?.content ?? '';
    const behaviour = this.#queue.shift() ?? this.fallback(body) ?? { reply: `You said: ${last}` };
    if ('hang' in behaviour) {
      this.#open.add(response);
      return;
    }
    if ('status' in behaviour) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (behaviour.retryAfter) headers['retry-after'] = String(behaviour.retryAfter);
      response
        .writeHead(behaviour.status, headers)
        .end(JSON.stringify({ error: { message: 'fake failure' } }));
      return;
    }
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    } finally {
      this.inFlight -= 1;
    }
    if (response.destroyed) return;
    const number = this.requests.length;
    const message =
      'toolCalls' in behaviour
        ? {
            role: 'assistant',
            content: behaviour.content ?? null,
            tool_calls: behaviour.toolCalls.map((call, index) => ({
              id: `call_${number}_${index}`,
              type: 'function',
              function: {
                name: call.name,
                arguments:
                  typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
              },
            })),
          }
        : { role: 'assistant', content: behaviour.reply };
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${number}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'toolCalls' in behaviour ? 'tool_calls' : 'stop' }],
        usage: behaviour.usage ?? this.usage,
      }),
    );
  }

  /** Chooses the answer when nothing is queued; null = the echo. Tests may replace it. */
  fallback: (body: RecordedRequest['body']) => Behaviour | null = () => null;
}
