import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiYaml } from '../../src/http/openapi.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('HTTP behaviour', () => {
  it('answers /health with status ok', async () => {
    const res = await t.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'reachable' });
  });

  it('answers / (where login and logout land) with the home page', async () => {
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html lang="(en|de)">/);
  });

  it('answers unknown routes with a 404 JSON error', async () => {
    for (const url of ['/nope', '/api/v1/planets', '/api/v2/species']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json().error).toContain(url);
    }
  });

  it('answers a path with no route 404 whatever its body (bad JSON, __proto__ keys, NUL)', async () => {
    for (const payload of ['{"__proto__":1}', '{not json', '{"name":"a\\u0000b"}']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/cultivars/',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(404);
      expect(res.json().error).toContain('/api/v1/cultivars/');
    }
  });

  it('rejects bodies over 1 MiB with 413, and unsupported content types with 415', async () => {
    const cookie = await t.cookie();
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ name_scientific: 'X', description: 'x'.repeat(1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'request body is too large: the limit is 1048576 bytes (1 MiB)' });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie, 'content-type': 'application/xml' },
      payload: '<family name_scientific="X"/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error).toMatch(/content type/);
    // text/plain is parsed (Fastify's default) and then fails validation: a 400, not a 500.
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'name_scientific=X',
    });
    expect(text.statusCode).toBe(400);
  });

  it('serves the OpenAPI document, identical to the committed openapi.yaml', async () => {
    const res = await t.app.inject({ url: '/api/openapi.yaml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/yaml/);
    const committed = await readFile(fileURLToPath(new URL('../../openapi.yaml', import.meta.url)), 'utf8');
    // If this fails, run `npm run openapi -w packages/plant-service` and review the diff.
    expect(res.body).toBe(committed);
    expect(openApiYaml(t.app)).toBe(committed);
    expect(res.body).toMatch(/^openapi: 3\.1\.0$/m);
    expect(res.body).toMatch(/^ {2}version: 1\.0\.0$/m);
  });

  it('serves the interactive docs page from the service itself', async () => {
    const page = await t.app.inject({ url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const init = await t.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('/api/openapi.yaml');
    // Every script and stylesheet the page loads is served here, not from another host.
    for (const [, src] of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
    }
  });
});

describe('sessions and roles', () => {
  const write = (cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: cookie ? { cookie } : {},
      payload: { name_scientific: `F${Math.random()}` },
    });

  it('401 without a cookie, with a malformed or unknown id, and after the session expired', async () => {
    expect((await write()).statusCode).toBe(401);
    expect((await write('id=garbage')).statusCode).toBe(401);
    expect((await write(`id=${'A'.repeat(43)}`)).statusCode).toBe(401);
    const cookie = await t.cookie();
    expect((await write(cookie)).statusCode).toBe(200);
    await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    const expired = await write(cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatch(/session/);
  });

  it('401 once the session was idle longer than SESSION_IDLE_DAYS', async () => {
    const cookie = await t.cookie();
    await t.database.db.execute(sql`update sessions set last_seen_at = now() - interval '13 hours'`);
    expect((await write(cookie)).statusCode).toBe(401);
  });

  it('by default (WRITE_ACCESS=groups) gives a signed-in user without the editor role 403', async () => {
    const refused = await write(await t.cookie({}));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/editor role/);
    expect((await write(await t.cookie({ editor: true }))).statusCode).toBe(200);
  });

  it('WRITE_ACCESS=groups lets editors and admins write, and gives others 403', async () => {
    const g = await createTestApp({ WRITE_ACCESS: 'groups' });
    try {
      const post = async (cookie: string) =>
        (
          await g.app.inject({
            method: 'POST',
            url: '/api/v1/families',
            headers: { cookie },
            payload: { name_scientific: `G${Math.random()}` },
          })
        ).statusCode;
      expect(await post(await g.cookie({}))).toBe(403);
      expect(await post(await g.cookie({ editor: true }))).toBe(200);
      expect(await post(await g.cookie({ admin: true }))).toBe(200);
    } finally {
      await g.close();
    }
  });

  it('WRITE_ACCESS=admins lets only admins write', async () => {
    const g = await createTestApp({ WRITE_ACCESS: 'admins' });
    try {
      const post = async (cookie: string) =>
        (
          await g.app.inject({
            method: 'POST',
            url: '/api/v1/suppliers',
            headers: { cookie },
            payload: { name: `S${Math.random()}` },
          })
        ).statusCode;
      expect(await post(await g.cookie({ editor: true }))).toBe(403);
      expect(await post(await g.cookie({ admin: true }))).toBe(200);
    } finally {
      await g.close();
    }
  });
});
