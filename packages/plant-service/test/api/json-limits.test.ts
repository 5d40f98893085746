/**
 * JSON bodies meet their limits while they are parsed: nesting deeper than JSON_MAX_DEPTH is a 400
 * naming the limit, answered in time linear in the body, without stalling other requests; a write
 * without a credential is refused before its body is read.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../src/http/json-body.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MINUTE: '0' });
  cookie = await t.cookie();
});
afterAll(() => t.close());

const deepObjects = (depth: number, leaf = '1') => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

describe(`JSON body limits (${backend})`, () => {
  it('answers a body nested 5,000 deep with a 400 naming the depth limit, on public and write routes', async () => {
    for (const payload of [deepObjects(5_000), deepArrays(5_000), `{"species":${deepArrays(5_000)}}`]) {
      for (const [url, headers] of [
        ['/api/v1/guilds/check', {}],
        ['/api/v1/families', { cookie }],
      ] as const) {
        const res = await post(url, payload, headers);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toBe(
          `body: nests arrays or objects deeper than ${JSON_MAX_DEPTH} levels (the limit)`,
        );
      }
    }
  });

  it('lets a body at the depth limit through to validation, one deeper is refused', async () => {
    const at = await post('/api/v1/guilds/check', `{"species":${deepArrays(JSON_MAX_DEPTH - 1)}}`);
    expect(at.statusCode).toBe(400);
    expect(at.json().error).not.toContain('deeper');
    const over = await post('/api/v1/guilds/check', `{"species":${deepArrays(JSON_MAX_DEPTH)}}`);
    expect(over.json().error).toContain(`deeper than ${JSON_MAX_DEPTH}`);
  });

  it('names the path of a NUL at the depth limit and in a wide body', async () => {
    const deep = await post('/api/v1/guilds/check', deepObjects(JSON_MAX_DEPTH, '"x\\u0000"'));
    expect(deep.statusCode).toBe(400);
    expect(deep.json().field).toBe(Array(JSON_MAX_DEPTH).fill('a').join('.'));
    const wide = JSON.stringify({ species: [...Array.from({ length: 50_000 }, () => 'ok'), 'n\u0000ul'] });
    const res = await post('/api/v1/guilds/check', wide);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('species.50000');
  });

  it('answers 5,000-deep bodies quickly and keeps a concurrent read fast', async () => {
    const payload = deepObjects(5_000);
    const started = performance.now();
    const deep = Array.from({ length: 20 }, () => post('/api/v1/guilds/check', payload));
    const readStarted = performance.now();
    const read = t.app.inject({ url: '/api/v1/species?per_page=5' }).then((res) => {
      expect(res.statusCode).toBe(200);
      return performance.now() - readStarted;
    });
    const answers = await Promise.all(deep);
    const elapsed = performance.now() - started;
    for (const res of answers) expect(res.statusCode).toBe(400);
    // Before the limit each cost over a second of event-loop time (20 s in all) and held reads for
    // seconds; the bound leaves room for a loaded machine.
    expect(elapsed).toBeLessThan(5_000);
    expect(await read).toBeLessThan(5_000);
  });

  it('refuses an anonymous write before reading its body (401 while the body is still unsent)', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('error', reject);
      // Headers promising a large body, and none of the body.
      socket.write(
        'POST /api/v1/families HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
          'content-length: 500000\r\n\r\n',
      );
    });
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    // The same write with a session waits for its body: it is read only after the credential.
    const pending = await new Promise<boolean>((resolve) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/v1/families',
          headers: {
            cookie,
            origin: t.config.auth.publicUrl,
            'content-type': 'application/json',
            'content-length': '100',
          },
        },
        () => resolve(false),
      );
      req.on('error', () => {});
      req.flushHeaders();
      setTimeout(() => {
        req.destroy();
        resolve(true);
      }, 300);
    });
    expect(pending).toBe(true);
  });
});
