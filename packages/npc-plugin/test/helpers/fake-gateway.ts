import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
  at: number;
}

/** What the fake answers next: a reply text, an HTTP status, or a reply after a delay. */
export type Behaviour =
  | { reply: string; delayMs?: number }
  | { status: number; retryAfter?: number }
  | { hang: true };

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, as a LiteLLM proxy
 * would. Each request takes the next queued behaviour, else the default (an echo of the last line).
 */
export class FakeGateway {
  readonly requests: RecordedRequest[] = [];
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
    const behaviour = this.#queue.shift() ?? { reply: `You said: ${last}` };
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
    if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (response.destroyed) return;
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: behaviour.reply }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }
}
