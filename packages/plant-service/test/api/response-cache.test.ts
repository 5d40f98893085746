import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { families, species } from '../../src/db/tables.js';
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

  it('keeps the UTF-8 bytes it sent, and counts them: a hit is the same text, characters beyond Latin-1 included', async () => {
    const text = 'Rosengewächse – Kräuter, Gemüse & Obst (€, ✓, 🌱)';
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${family.slug}`,
      headers: { cookie: writer },
      payload: { description: text },
    });
    expect(put.statusCode).toBe(200);
    const url = `/api/v1/families/${family.slug}`;
    const miss = await t.app.inject({ url });
    const hit = await t.app.inject({ url });
    expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(hit.json().description).toBe(text);
    expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    for (const res of [miss, hit])
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(miss.body));
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const held = Number(/^plants_response_cache_bytes (\S+)$/m.exec(metrics)?.[1]);
    expect(held).toBeGreaterThanOrEqual(Buffer.byteLength(miss.body));
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

  it('once full, keeps a large body only for a URL requested more often than those it pushes out', async () => {
    // 1 MB holds one page of 30 species, 29 of them with 20,000-character descriptions (over
    // 580,000 bytes), never two.
    const small = await createTestApp({ RESPONSE_CACHE_MB: '1' });
    try {
      const [own] = await small.database.db
        .insert(families)
        .values({ slug: 'cache-admission', name_scientific: 'Admissionaceae' })
        .returning({ id: families.id });
      await small.database.db.insert(species).values(
        Array.from({ length: 30 }, (_, i) => ({
          slug: `cache-large-${i}`,
          name_scientific: `Magnus ${i}`,
          family_id: own!.id,
          // One short record, for a body kept at once.
          description: i === 0 ? 'Short.' : 'A long description. '.repeat(1000),
        })),
      );
      const states = async (url: string, times: number) => {
        const seen: unknown[] = [];
        for (let i = 0; i < times; i++) {
          const res = await small.app.inject({ url });
          expect(res.statusCode).toBe(200);
          expect(res.body.length).toBeGreaterThan(580_000);
          seen.push(res.headers['x-cache']);
        }
        return seen;
      };
      const first = '/api/v1/species?per_page=30&search=magnus';
      const second = '/api/v1/species?per_page=30&search=magnus&page=1';
      // With room, a body is kept from its first request.
      expect(await states(first, 2)).toEqual(['MISS', 'HIT']);
      // Requested as often as the kept one (twice), the second URL does not push it out; a third
      // time, it does.
      expect(await states(second, 4)).toEqual(['MISS', 'MISS', 'MISS', 'HIT']);
      expect(await states(first, 1)).toEqual(['MISS']);
      // A body up to 16 KiB is kept at once, however full the cache.
      const record = '/api/v1/species/cache-large-0';
      const once = await small.app.inject({ url: record });
      expect(once.body.length).toBeLessThan(16 * 1024);
      expect(once.headers['x-cache']).toBe('MISS');
      expect((await small.app.inject({ url: record })).headers['x-cache']).toBe('HIT');
      // After a write, kept bodies are stale and leave for any body.
      const put = await small.app.inject({
        method: 'PUT',
        url: '/api/v1/families/cache-admission',
        headers: { cookie: await small.cookie() },
        payload: { name_scientific: 'Admissionaceae', name_en: 'changed' },
      });
      expect(put.statusCode).toBe(200);
      const third = `/api/v1/species?per_page=30&search=magnus&family=cache-admission`;
      expect(await states(third, 2)).toEqual(['MISS', 'HIT']);
      // Over 16 KiB, a body is kept as it is (only bodies kept at once are kept gzip-encoded), so a
      // client preferring br gets br.
      const encoded = await small.app.inject({ url: third, headers: { 'accept-encoding': 'gzip, br' } });
      expect(encoded.headers['x-cache']).toBe('HIT');
      expect(encoded.headers['content-encoding']).toBe('br');
    } finally {
      await small.close();
    }
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
