import { eq } from 'drizzle-orm';
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

/** Waits until `check` holds, failing after a second. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 1_000;
  while (!(await check())) {
    expect(Date.now(), 'not within 1 s').toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

  it('is emptied by the database: a write in SQL, past the service, is seen by the next read', async () => {
    const url = `/api/v1/families/${family.slug}`;
    await t.app.inject({ url });
    expect((await t.app.inject({ url })).headers['x-cache']).toBe('HIT');
    await t.database.db
      .update(families)
      .set({ name_de: 'Rosengewächse (SQL)' })
      .where(eq(families.id, family.id));
    // On PGlite the notification comes back with the statement; PostgreSQL delivers it on the
    // LISTEN connection a moment later.
    await until(async () => (await t.app.inject({ url })).json().name_de === 'Rosengewächse (SQL)');
  });

  it('is not emptied by writes outside the catalogue (API tokens)', async () => {
    const url = `/api/v1/families/${family.slug}`;
    // Warm, once the announcements of earlier changes have arrived.
    await until(async () => (await t.app.inject({ url })).headers['x-cache'] === 'HIT');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: { cookie: writer },
      payload: { name: 'cache check' },
    });
    expect(created.statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/tokens/${created.json().id}`,
      headers: { cookie: writer },
    });
    expect(revoked.statusCode).toBeLessThan(300);
    expect((await t.app.inject({ url })).headers['x-cache']).toBe('HIT');
  });

  it('says Vary: Accept-Encoding on small identity bodies, hits and 304s alike, once', async () => {
    const url = `/api/v1/families/${family.slug}`;
    const headers = { 'accept-encoding': 'gzip, br' };
    const varies = (res: { headers: Record<string, unknown> }) =>
      String(res.headers.vary)
        .split(',')
        .filter((field) => field.trim().toLowerCase() === 'accept-encoding').length;
    const first = await t.app.inject({ url, headers });
    expect(first.statusCode).toBe(200);
    // Under the compression threshold: sent as it is, yet a cache must still key on the encoding.
    expect(first.rawPayload.length).toBeLessThan(1024);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(varies(first)).toBe(1);
    let hit = first;
    await until(async () => {
      hit = await t.app.inject({ url, headers });
      return hit.headers['x-cache'] === 'HIT';
    });
    expect(varies(hit)).toBe(1);
    const notModified = await t.app.inject({
      url,
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(varies(notModified)).toBe(1);
    const large = await t.app.inject({ url: '/api/v1/species?limit=100', headers });
    expect(varies(large)).toBe(1);
  });

  it('keeps a response per negotiated encoding, as it was sent, with Vary and Cache-Control', async () => {
    // A page large enough to be compressed.
    await fixtures(t, writer).species(family.id, 'Rosa canina', { description: 'Hagebutte. '.repeat(300) });
    const url = '/api/v1/species?per_page=5';
    const get = (encoding: string) => t.app.inject({ url, headers: { 'accept-encoding': encoding } });
    const plain = await t.app.inject({ url });
    for (const [encoding, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, br', 'br'],
    ] as const) {
      const miss = await get(encoding);
      const hit = await get(encoding);
      expect([miss.headers['x-cache'], hit.headers['x-cache']], encoding).toEqual([
        expected === 'br' && encoding !== 'br' ? 'HIT' : 'MISS',
        'HIT',
      ]);
      expect(hit.headers['content-encoding'], encoding).toBe(expected);
      expect(String(hit.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
      expect(hit.headers.etag).toBe(plain.headers.etag);
    }
    const identity = await t.app.inject({ url });
    expect(identity.headers['x-cache']).toBe('HIT');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
    expect(identity.headers['cache-control']).toBe('public, no-cache');
  });

  it('holds no more bytes than RESPONSE_CACHE_MB, the least recently used out first', async () => {
    const small = await createTestApp({ RESPONSE_CACHE_MB: '1' });
    try {
      const [own] = await small.database.db
        .insert(families)
        .values({ slug: 'cache-bound', name_scientific: 'Boundaceae' })
        .returning({ id: families.id });
      await small.database.db.insert(species).values(
        Array.from({ length: 6 }, (_, i) => ({
          slug: `cache-large-${i}`,
          name_scientific: `Magnus ${i}`,
          family_id: own!.id,
          description: 'A long description. '.repeat(950),
        })),
      );
      // Each record is about 20 KB uncompressed: 1 MB holds about 50 of them, never all 60 URLs.
      const urls = Array.from({ length: 60 }, (_, i) => `/api/v1/species/cache-large-${i % 6}?v=${i}`);
      for (const url of urls) expect((await small.app.inject({ url })).headers['x-cache']).toBe('MISS');
      const metrics = (await small.app.inject({ url: '/metrics' })).body;
      const held = Number(/^plants_response_cache_bytes (\S+)$/m.exec(metrics)?.[1]);
      expect(held).toBeGreaterThan(512 * 1024);
      expect(held).toBeLessThanOrEqual(1024 * 1024);
      expect((await small.app.inject({ url: urls[59]! })).headers['x-cache']).toBe('HIT');
      expect((await small.app.inject({ url: urls[0]! })).headers['x-cache']).toBe('MISS');
    } finally {
      await small.close();
    }
  });

  it('sends Cache-Control with HTTP_MAX_AGE_SECONDS for caches in front', async () => {
    const aged = await createTestApp({ HTTP_MAX_AGE_SECONDS: '60' });
    try {
      const res = await aged.app.inject({ url: '/api/v1/families' });
      expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=60');
    } finally {
      await aged.close();
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
