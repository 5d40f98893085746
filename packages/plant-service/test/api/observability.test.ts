/**
 * What operators watch: request ids (kept when safe, else random; echoed; on every log line of
 * the request), /ready (flips with the database and with pending migrations; /health stays
 * liveness), /metrics (Prometheus text, counters moving), and compressed responses that
 * decompress to the same bytes with ETag and 304 intact.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { jpeg } from '../helpers/storage-images.js';
import { uploader } from '../helpers/storage-upload.js';

/** The database with a switch: while `down.now` is set, every statement fails like a lost server. */
function switchableDatabase(database: Database, down: { now: boolean }): Database {
  const db = new Proxy(database.db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === 'execute' || property === 'select') {
        return (...args: unknown[]) => {
          if (down.now) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...database, db } as Database;
}

/** `name{labels} value` lines of the Prometheus text format, by series. */
function parseMetrics(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

let t: TestApp;
let dir: string;
let writer: string;
const down = { now: false };
const logLines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-observability-'));
  t = await createTestApp(
    {},
    {
      store: new FilesystemStore(path.join(dir, 'images')),
      wrapDatabase: (database) => switchableDatabase(database, down),
      logger: { level: 'debug', stream: { write: (line: string) => logLines.push(line) } },
    },
  );
  writer = await t.cookie({ admin: true });
  const make = fixtures(t, writer);
  for (let i = 0; i < 30; i++)
    await make.family(`Observaceae ${String(i).padStart(2, '0')}`, { description: 'x'.repeat(60) });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('request ids', () => {
  it('keeps a safe client id, echoes it, and puts it on every log line of the request', async () => {
    const id = 'planner-7f3a.2:retry-1';
    const res = await t.app.inject({ url: '/api/v1/families?per_page=2', headers: { 'x-request-id': id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(id);
    const lines = logLines.map((l) => JSON.parse(l) as { reqId?: string; msg: string });
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(lines.filter((l) => l.msg === 'incoming request' && JSON.stringify(l).includes(id))).toHaveLength(
      1,
    );
  });

  it('replaces a missing, too long or unsafe id with a random UUID', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const seen = new Set<string>();
    for (const given of [undefined, 'x'.repeat(129), 'a b', 'id\u00e9', '', 'evil\r\nx']) {
      const headers = given === undefined ? {} : { 'x-request-id': given };
      const res = await t.app.inject({ url: '/health', headers });
      const echoed = String(res.headers['x-request-id']);
      expect(echoed).toMatch(uuid);
      seen.add(echoed);
    }
    expect(seen.size).toBe(6);
  });
});

describe('readiness and liveness', () => {
  it('/ready answers 200 with the database up and migrations applied, 503 when it goes away', async () => {
    expect((await t.app.inject({ url: '/ready' })).json()).toEqual({ status: 'ok' });
    down.now = true;
    try {
      const ready = await t.app.inject({ url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'error', error: 'database unreachable' });
      // Liveness stays up (restarting would not bring the database back) and says what is wrong.
      const health = await t.app.inject({ url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', database: 'unreachable' });
    } finally {
      down.now = false;
    }
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After while the starter dataset loads, except /health', async () => {
    let starting = true;
    const app = await buildApp({
      config: t.config,
      database: t.database,
      store: new FilesystemStore(path.join(dir, 'gate')),
      startingUp: () => starting,
    });
    try {
      const early = await app.inject({ url: '/api/v1/families' });
      expect(early.statusCode, early.body).toBe(503);
      expect(early.headers['retry-after']).toBe('5');
      expect(early.json().error).toMatch(/starting/);
      expect((await app.inject({ url: '/ready' })).statusCode).toBe(503);
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      starting = false;
      expect((await app.inject({ url: '/api/v1/families' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('/ready answers 503 while a migration is not applied', async () => {
    const { db } = t.database;
    const result = (await db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`,
    )) as unknown as { rows: { hash: string; created_at: string }[] };
    const removed = result.rows[0]!;
    try {
      const ready = await t.app.inject({ url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'error', error: '1 database migration(s) not applied' });
      expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      await db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${removed.hash}, ${removed.created_at})`,
      );
    }
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200);
  });
});

describe('metrics', () => {
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(res.body);
  };

  it('counts requests by route template, method and status, with durations', async () => {
    const key = 'plants_http_requests_total{method="GET",route="/api/v1/families/:ref",status_code="200"}';
    const notFound =
      'plants_http_requests_total{method="GET",route="/api/v1/families/:ref",status_code="404"}';
    const before = await scrape();
    await t.app.inject({ url: '/api/v1/families/observaceae-01' });
    await t.app.inject({ url: '/api/v1/families/observaceae-02' });
    await t.app.inject({ url: '/api/v1/families/no-such-family' });
    const after = await scrape();
    expect((after.get(key) ?? 0) - (before.get(key) ?? 0)).toBe(2);
    expect((after.get(notFound) ?? 0) - (before.get(notFound) ?? 0)).toBe(1);
    const count =
      'plants_http_request_duration_seconds_count{method="GET",route="/api/v1/families/:ref",status_code="200"}';
    expect((after.get(count) ?? 0) - (before.get(count) ?? 0)).toBe(2);
    expect(after.get('plants_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect([...after.keys()].some((k) => k.startsWith('plants_nodejs_eventloop_lag_seconds'))).toBe(true);
  });

  it('times database statements, on either backend', async () => {
    const count = 'plants_db_statement_duration_seconds_count';
    const sum = 'plants_db_statement_duration_seconds_sum';
    const before = await scrape();
    // Not a cached URL the earlier tests asked, so the database answers it.
    expect((await t.app.inject({ url: '/api/v1/families/no-such-family-statements' })).statusCode).toBe(404);
    const after = await scrape();
    expect((after.get(count) ?? 0) - (before.get(count) ?? 0)).toBeGreaterThan(0);
    expect(after.get(sum) ?? 0).toBeGreaterThan(before.get(sum) ?? 0);
  });

  it('counts response-cache hits, misses and bytes, logins and image resizes', async () => {
    const hit = 'plants_response_cache_requests_total{result="hit"}';
    const miss = 'plants_response_cache_requests_total{result="miss"}';
    const before = await scrape();
    await t.app.inject({ url: '/api/v1/families?per_page=3' });
    await t.app.inject({ url: '/api/v1/families?per_page=3' });
    await t.app.inject({ url: '/auth/oidc/callback?state=x' });
    const family = (await t.app.inject({ url: '/api/v1/families/observaceae-03' })).json() as { id: string };
    const upload = await uploader(t, writer)(
      { entity_type: 'family', entity_id: family.id },
      await jpeg(400, 300),
    );
    expect(upload.statusCode).toBe(200);
    const { store_key } = upload.json() as { store_key: string };
    expect((await t.app.inject({ url: `/img/${store_key}?w=160` })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/img/${store_key}?w=160` })).statusCode).toBe(200);
    // The upload changed the catalogue and emptied the cache: one more miss keeps a body again.
    await t.app.inject({ url: '/api/v1/families?per_page=3' });

    const after = await scrape();
    expect((after.get(hit) ?? 0) - (before.get(hit) ?? 0)).toBe(1);
    expect((after.get(miss) ?? 0) - (before.get(miss) ?? 0)).toBeGreaterThanOrEqual(1);
    expect(after.get('plants_response_cache_bytes')).toBeGreaterThan(0);
    const unavailable = 'plants_logins_total{outcome="unavailable"}';
    expect((after.get(unavailable) ?? 0) - (before.get(unavailable) ?? 0)).toBe(1);
    const resized = 'plants_image_resizes_total{outcome="ok"}';
    expect((after.get(resized) ?? 0) - (before.get(resized) ?? 0)).toBe(1);
    if (t.database.kind === 'postgres') {
      expect(after.get('plants_db_pool_connections')).toBeGreaterThan(0);
      expect(after.has('plants_db_pool_waiting')).toBe(true);
    }
  });

  it('is not served with METRICS_ENABLED=false', async () => {
    const off = await createTestApp({ METRICS_ENABLED: 'false' });
    try {
      expect((await off.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('compression', () => {
  // Between 1 and 4 KiB, and a page over 8 KiB.
  const url = '/api/v1/families?per_page=8';
  const large = '/api/v1/families?per_page=30';

  it('sends br or gzip above the threshold, decompressing to the same bytes, with ETag and 304 intact', async () => {
    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.rawPayload.length).toBeLessThan(4096);
    // The response cache keeps the body from its URL's first request.
    expect((await t.app.inject({ url })).body).toBe(plain.body);
    // It keeps each negotiated encoding apart: the first request in an encoding is a miss.
    for (const encoding of ['br', 'gzip'])
      expect((await t.app.inject({ url, headers: { 'accept-encoding': encoding } })).headers['x-cache']).toBe(
        'MISS',
      );

    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': `${encoding}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['x-cache']).toBe('HIT');
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decode(res.rawPayload).toString()).toBe(plain.body);
      expect(res.headers.etag).toBe(plain.headers.etag);

      const revalidated = await t.app.inject({
        url,
        headers: { 'accept-encoding': encoding, 'if-none-match': String(plain.headers.etag) },
      });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.rawPayload.length).toBe(0);
    }
    // br preferred when both are accepted.
    const both = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(both.headers['content-encoding']).toBe('br');
  });

  it('keeps a large page per negotiated encoding as it was sent, with its length, and decodes to the same bytes', async () => {
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const plain = await t.app.inject({ url: large });
    // Above 8 KiB, where the compression plugin's default on two cores would stream it.
    expect(plain.rawPayload.length).toBeGreaterThan(8192);
    const miss = await t.app.inject({ url: large, headers: browser });
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.headers['content-encoding']).toBe('br');
    expect(Number(miss.headers['content-length'])).toBe(miss.rawPayload.length);
    const hit = await t.app.inject({ url: large, headers: browser });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['content-encoding']).toBe('br');
    expect(hit.headers.vary).toMatch(/accept-encoding/i);
    expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    expect(brotliDecompressSync(hit.rawPayload).toString()).toBe(plain.body);
    expect(hit.headers.etag).toBe(plain.headers.etag);
    for (const headers of [
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'gzip', 'x-no-compression': '1' },
    ]) {
      const res = await t.app.inject({ url: large, headers });
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.body).toBe(plain.body);
    }
    const gzip = await t.app.inject({ url: large, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const revalidated = await t.app.inject({
      url: large,
      headers: { ...browser, 'if-none-match': String(plain.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it('compresses the OpenAPI YAML, and leaves small bodies and images alone', async () => {
    const yaml = await t.app.inject({ url: '/api/openapi.yaml', headers: { 'accept-encoding': 'gzip' } });
    expect(yaml.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(yaml.rawPayload).toString()).toMatch(/^components:/);
    const small = await t.app.inject({ url: '/health', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const family = (await t.app.inject({ url: '/api/v1/families/observaceae-04' })).json() as { id: string };
    const upload = await uploader(t, writer)(
      { entity_type: 'family', entity_id: family.id },
      await jpeg(400, 300),
    );
    const { store_key } = upload.json() as { store_key: string };
    const image = await t.app.inject({
      url: `/img/${store_key}`,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
  });
});
