import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { species } from '../../src/db/tables.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let family: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  family = await fixtures(t, writer).family('Rosaceae');
});
afterAll(() => t.close());

describe('response cache', () => {
  it('serves a repeated public GET from the cache with the same body and an ETag', async () => {
    const first = await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    const second = await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers.etag).toBe(first.headers.etag);
    const revalidated = await t.app.inject({
      url: `/api/v1/families/${family.slug}`,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('shows a write at once: any successful write invalidates every cached response', async () => {
    const list1 = await t.app.inject({ url: '/api/v1/families' });
    await t.app.inject({ url: '/api/v1/families' });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${family.slug}`,
      headers: { cookie: writer },
      payload: { name_en: 'Rose family' },
    });
    expect(put.statusCode).toBe(200);
    const got = await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    expect(got.headers['x-cache']).toBe('MISS');
    expect(got.json().name_en).toBe('Rose family');
    const list2 = await t.app.inject({ url: '/api/v1/families' });
    expect(list2.headers['x-cache']).toBe('MISS');
    expect(list2.body).not.toBe(list1.body);
  });

  it('does not let a refused write invalidate, and never caches errors or session routes', async () => {
    await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      payload: { name_scientific: 'X' },
    });
    expect(refused.statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/v1/families/${family.slug}` })).headers['x-cache']).toBe('HIT');
    for (let i = 0; i < 2; i++) {
      const missing = await t.app.inject({ url: '/api/v1/families/nope' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-cache']).toBeUndefined();
    }
  });

  it("keeps a large body from its URL's second request, a small one from its first", async () => {
    await t.database.db.insert(species).values(
      Array.from({ length: 30 }, (_, i) => ({
        slug: `cache-large-${i}`,
        name_scientific: `Magnus ${i}`,
        family_id: family.id,
        description: 'A long description. '.repeat(40),
      })),
    );
    const url = '/api/v1/species?per_page=30&search=magnus';
    const states: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      states.push(res.headers['x-cache']);
      if (i === 0) expect(res.body.length).toBeGreaterThan(16 * 1024);
    }
    expect(states).toEqual(['MISS', 'MISS', 'HIT']);
    const small = `/api/v1/species/cache-large-0`;
    const first = await t.app.inject({ url: small });
    expect(first.body.length).toBeLessThan(16 * 1024);
    expect(first.headers['x-cache']).toBe('MISS');
    expect((await t.app.inject({ url: small })).headers['x-cache']).toBe('HIT');
  });

  it('is off with RESPONSE_CACHE_MB=0', async () => {
    const off = await createTestApp({ RESPONSE_CACHE_MB: '0' });
    try {
      for (let i = 0; i < 2; i++) {
        expect((await off.app.inject({ url: '/api/v1/families' })).headers['x-cache']).toBeUndefined();
      }
    } finally {
      await off.close();
    }
  });
});

describe('response cache and CORS preflights', () => {
  it('keeps cached responses through an OPTIONS preflight', async () => {
    await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/families',
      headers: { origin: t.config.auth.publicUrl, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBeLessThan(400);
    expect((await t.app.inject({ url: `/api/v1/families/${family.slug}` })).headers['x-cache']).toBe('HIT');
  });
});

describe('response cache revalidation', () => {
  it('answers 304 to an If-None-Match list or weak form of the cached ETag', async () => {
    const first = await t.app.inject({ url: '/api/v1/families' });
    const etag = String(first.headers.etag);
    for (const header of [`"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await t.app.inject({ url: '/api/v1/families', headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
    }
    const other = await t.app.inject({ url: '/api/v1/families', headers: { 'if-none-match': '"other"' } });
    expect(other.statusCode).toBe(200);
  });
});
