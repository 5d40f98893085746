/**
 * Rate limits behind a real reverse proxy (HAProxy, `option forwardfor`) with TRUST_PROXY=1: the
 * client address is the one the proxy appended, so a made-up `X-Forwarded-For` from the client
 * changes nothing, two clients behind the proxy have separate budgets, and writes are counted per
 * user whatever address they come from.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';
import { type Haproxy, startHaproxy } from '../helpers/haproxy.js';

const LIMIT = 5;

let t: TestApp;
let proxy: Haproxy;
beforeAll(async () => {
  t = await createTestApp({
    TRUST_PROXY: '1',
    RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT),
    RATE_LIMIT_WRITES_PER_MINUTE: String(LIMIT),
  });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startHaproxy(Number(new URL(address).port));
});
afterAll(async () => {
  await proxy?.close();
  await t.close();
});

/** One request through the proxy from the loopback address `from` (127.0.0.0/8 is all local). */
function viaProxy(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: proxy.port, localAddress: from, method, path, headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe(`behind HAProxy with TRUST_PROXY=1 (${backend})`, () => {
  it('a client rotating made-up X-Forwarded-For addresses stays in its own /auth budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 3; i++) {
      statuses.push(await viaProxy('127.0.0.2', 'GET', '/auth/me', { 'x-forwarded-for': `203.0.113.${i}` }));
    }
    expect(
      statuses.slice(0, LIMIT).every((s) => s !== 429),
      statuses.join(),
    ).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual(Array(LIMIT * 2).fill(429));
    // Another client behind the same proxy has a budget of its own.
    expect(await viaProxy('127.0.0.3', 'GET', '/auth/me')).not.toBe(429);
  });

  it('counts writes per user: one user over the limit does not stop another at the same address', async () => {
    const origin = t.config.auth.publicUrl;
    const write = (cookie: string, i: number) =>
      viaProxy(
        '127.0.0.4',
        'POST',
        '/api/v1/families',
        { cookie, origin, 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        JSON.stringify({ name_scientific: `Proxyaceae${i}${Math.random().toString(36).slice(2, 8)}` }),
      );
    const first = await t.cookie();
    const second = await t.cookie();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push(await write(first, i));
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    expect(await write(second, 99)).toBe(200);
  });
});
