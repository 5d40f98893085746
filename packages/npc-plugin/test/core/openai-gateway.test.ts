import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway/llm-gateway.js';
import { OfflineGateway, OpenAiGateway } from '../../src/core/gateway/openai-gateway.js';
import { FakeGateway } from '../helpers/fake-gateway.js';

const messages = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hi' },
  ],
} as const;

describe('OpenAiGateway against an OpenAI-compatible server', () => {
  let fake: FakeGateway;
  const client = (over: Partial<ConstructorParameters<typeof OpenAiGateway>[0]> = {}) =>
    new OpenAiGateway({
      baseUrl: fake.url,
      model: 'm1',
      apiKey: 'k1',
      timeoutMs: 3000,
      maxRetries: 2,
      retryMinDelayMs: 10,
      retryMaxDelayMs: 50,
      maxResponseBytes: 64 * 1024,
      ...over,
    });
  const signal = () => AbortSignal.timeout(10_000);

  beforeAll(async () => {
    fake = await new FakeGateway().start();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('posts model and messages to /chat/completions with the bearer key and returns the content', async () => {
    fake.next({ reply: '  Hello!  ' });
    const before = fake.requests.length;
    expect((await client().complete(messages, signal())).content).toBe('Hello!');
    const request = fake.requests[before]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer k1');
    expect(request.body).toMatchObject({ model: 'm1', messages: messages.messages });
    expect(request.body.tools).toBeUndefined();
  });

  it('sends no Authorization header without a key', async () => {
    const before = fake.requests.length;
    await client({ apiKey: null }).complete(messages, signal());
    expect(fake.requests[before]!.authorization).toBeUndefined();
  });

  for (const status of [408, 429, 500, 503]) {
    it(`retries after ${status}`, async () => {
      fake.next({ status }, { reply: 'second time lucky' });
      const before = fake.requests.length;
      expect((await client().complete(messages, signal())).content).toBe('second time lucky');
      expect(fake.requests.length - before).toBe(2);
    });
  }

  it('gives up after maxRetries with the last status', async () => {
    fake.next({ status: 502 }, { status: 502 }, { status: 502 });
    const before = fake.requests.length;
    const error = await client()
      .complete(messages, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'http_status', status: 502 });
    expect(fake.requests.length - before).toBe(3);
  });

  for (const status of [400, 401, 404]) {
    it(`does not retry after ${status}`, async () => {
      fake.next({ status });
      const before = fake.requests.length;
      await expect(client().complete(messages, signal())).rejects.toMatchObject({
        code: 'http_status',
        status,
      });
      expect(fake.requests.length - before).toBe(1);
    });
  }

  it('honours a short Retry-After', async () => {
    fake.next({ status: 429, retryAfter: 1 }, { reply: 'ok' });
    const started = Date.now();
    // The wait is capped by retryMaxDelayMs (50 ms here), not the full second.
    expect((await client().complete(messages, signal())).content).toBe('ok');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('times out a silent gateway without retrying', async () => {
    fake.next({ hang: true });
    const before = fake.requests.length;
    const started = Date.now();
    await expect(client({ timeoutMs: 200 }).complete(messages, signal())).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.requests.length - before).toBe(1);
  });

  it('reports an unreachable gateway as a network error', async () => {
    const gone = new OpenAiGateway({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'm',
      apiKey: null,
      timeoutMs: 500,
      maxRetries: 2,
      maxResponseBytes: 1024,
    });
    await expect(gone.complete(messages, signal())).rejects.toMatchObject({ code: 'network' });
  });

  it('rejects an answer without message content', async () => {
    fake.next({ reply: '   ' });
    await expect(client().complete(messages, signal())).rejects.toMatchObject({ code: 'bad_response' });
  });

  it('in offline mode fails at once with not_configured', async () => {
    const offline = new OfflineGateway('m');
    expect(offline.configured).toBe(false);
    await expect(offline.complete()).rejects.toMatchObject({ code: 'not_configured' });
  });

  it('sends the tool definitions and returns the tool calls and the usage', async () => {
    fake.next({
      toolCalls: [{ name: 'follow_player', arguments: { player: 'Alice' } }],
      usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
    });
    const before = fake.requests.length;
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'follow_player', description: 'follow', parameters: { type: 'object' } },
      },
    ];
    const completion = await client().complete({ ...messages, tools, toolChoice: 'auto' }, signal());
    expect(completion.content).toBeNull();
    expect(completion.toolCalls).toEqual([
      {
        id: expect.any(String),
        type: 'function',
        function: { name: 'follow_player', arguments: '{"player":"Alice"}' },
      },
    ]);
    expect(completion.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
    expect(fake.requests[before]!.body).toMatchObject({ tools, tool_choice: 'auto' });
  });

  it('stops reading an answer over maxResponseBytes and fails with too_large', async () => {
    fake.next({ reply: 'x'.repeat(10 * 1024 * 1024) });
    const started = Date.now();
    await expect(client({ timeoutMs: 8000 }).complete(messages, signal())).rejects.toMatchObject({
      code: 'too_large',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
