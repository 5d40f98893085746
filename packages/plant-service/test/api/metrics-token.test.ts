/**
 * METRICS_TOKEN: with it set, /metrics answers only a request bearing it (401 with
 * `WWW-Authenticate: Bearer` otherwise, a session or API token included); without it, the route
 * stays public as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const TOKEN = 'scrape-me-0123456789abcdef';

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const scrape = (headers: Record<string, string> = {}) => t.app.inject({ url: '/metrics', headers });

  it('answers only the configured bearer token', async () => {
    const ok = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('plants_http_requests_total');

    const refused: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
      { cookie: await t.cookie({ admin: true }) },
    ];
    for (const headers of refused) {
      const res = await scrape(headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json().error).toMatch(/METRICS_TOKEN/);
      expect(res.body).not.toContain('plants_http_requests_total');
    }
  });
});

describe('metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stay public', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(200);
  });
});
