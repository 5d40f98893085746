import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { jpeg, png, pngHeader } from '../helpers/storage-images.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestApp;
let dir: string;
let store: FilesystemStore;
let admin: string;
let photo: Buffer;
let image: { id: string; store_key: string; entity_id: string };
let pngImage: { store_key: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-img-'));
  store = new FilesystemStore(path.join(dir, 'images'));
  t = await createTestApp({}, { store });
  const writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  const make = fixtures(t, writer);
  const family = await make.family('Lamiaceae');
  const mint = await make.species(family.id, 'Mentha spicata');
  const upload = uploader(t, writer);
  photo = await jpeg(800, 600);
  image = (await upload({ entity_type: 'species', entity_id: mint.id }, photo)).json();
  pngImage = (await upload({ entity_type: 'family', entity_id: family.id }, await png(100, 50))).json();
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

describe('GET /img/{key}', () => {
  it('streams the file with type, length, ETag and immutable caching', async () => {
    const res = await get(`/img/${image.store_key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-length': String(photo.length),
      'cache-control': IMMUTABLE,
      'accept-ranges': 'bytes',
    });
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.rawPayload.equals(photo)).toBe(true);
    const other = await get(`/img/${pngImage.store_key}`);
    expect(other.headers['content-type']).toBe('image/png');
  });

  it('answers HEAD with the same headers and no body', async () => {
    const full = await get(`/img/${image.store_key}`);
    const head = await get(`/img/${image.store_key}`, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) {
      expect(head.headers[name], name).toBe(full.headers[name]);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { etag } = (await get(`/img/${image.store_key}`)).headers;
    const res = await get(`/img/${image.store_key}`, { 'if-none-match': `"other", ${etag}` });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect((await get(`/img/${image.store_key}`, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('serves a byte range with 206, and 416 past the end', async () => {
    const res = await get(`/img/${image.store_key}`, { range: 'bytes=100-199' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${photo.length}`);
    expect(res.headers['content-length']).toBe('100');
    expect(res.rawPayload.equals(photo.subarray(100, 200))).toBe(true);

    const tail = await get(`/img/${image.store_key}`, { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(photo.subarray(-10))).toBe(true);

    const head = await get(`/img/${image.store_key}`, { range: 'bytes=0-9' }, 'HEAD');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-length']).toBe('10');

    const beyond = await get(`/img/${image.store_key}`, { range: `bytes=${photo.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${photo.length}`);

    const stale = await get(`/img/${image.store_key}`, { range: 'bytes=0-9', 'if-range': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(photo.length);
  });

  it('answers 404 for unknown and malformed keys, including attempts to leave the store', async () => {
    const [type, entity] = image.store_key.split('/');
    for (const url of [
      `/img/${type}/${entity}/${randomUUID()}.jpg`,
      `/img/${type}/${randomUUID()}/${image.id}.jpg`,
      `/img/${type}/${entity}/${image.id}.png`,
      `/img/${type}/${entity}/${image.id}.w160.webp`,
      `/img/genus/${entity}/${image.id}.jpg`,
      `/img/${type}/${entity}`,
      '/img/species/..%2F..%2F..%2Fetc/passwd',
      `/img/${type}/${entity}/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      `/img/${type}/%2e%2e/${image.id}.jpg`,
      '/img/../../etc/passwd',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/json/);
    }
  });
});

describe('GET /img/{key}?w=', () => {
  it('serves a WebP of the requested width, made once and kept in the store', async () => {
    const first = await get(`/img/${image.store_key}?w=320`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['cache-control']).toBe(IMMUTABLE);
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });
    const copy = `${image.store_key.replace(/\.jpg$/, '')}.w320.webp`;
    expect(await storedKeys(store, copy)).toEqual([copy]);

    const again = await get(`/img/${image.store_key}?w=320`);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(
      (await get(`/img/${image.store_key}?w=320`, { 'if-none-match': first.headers.etag! })).statusCode,
    ).toBe(304);
    const part = await get(`/img/${image.store_key}?w=320`, { range: 'bytes=0-3' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.toString('latin1')).toBe('RIFF');
  });

  it('never enlarges', async () => {
    const res = await get(`/img/${pngImage.store_key}?w=1280`);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 100, height: 50 });
  });

  it('makes one copy for concurrent first requests', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => get(`/img/${image.store_key}?w=640`)),
    );
    for (const res of responses) expect(res.statusCode).toBe(200);
    const bodies = new Set(responses.map((r) => r.rawPayload.toString('base64')));
    expect(bodies.size).toBe(1);
  });

  it('refuses other widths and unknown parameters with 400; a missing image is 404', async () => {
    for (const query of ['w=100', 'w=0', 'w=abc', 'w=320.5', 'size=320']) {
      const res = await get(`/img/${image.store_key}?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    const [type, entity] = image.store_key.split('/');
    expect((await get(`/img/${type}/${entity}/${randomUUID()}.jpg?w=160`)).statusCode).toBe(404);
  });

  it('deleting the image removes the file and its copies: 404 afterwards', async () => {
    const prefix = image.store_key.replace(/\.jpg$/, '');
    expect((await storedKeys(store, prefix)).length).toBeGreaterThan(1);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/images/${image.id}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    expect(await storedKeys(store, prefix)).toEqual([]);
    expect((await get(`/img/${image.store_key}`)).statusCode).toBe(404);
    expect((await get(`/img/${image.store_key}?w=320`)).statusCode).toBe(404);
  });
});

describe('an original whose stored data does not decode', () => {
  /**
   * Stores a PNG header and no decodable pixel data under a valid original key, as older uploads
   * could be; long enough that a decoder giving up leaves the file partly read.
   */
  const undecodable = Buffer.concat([pngHeader(400, 300), Buffer.alloc(256 * 1024, 0x33)]);
  const storeUndecodable = async () => {
    const [type, entity] = pngImage.store_key.split('/');
    const key = `${type}/${entity}/${randomUUID()}.png`;
    await store.put(key, Readable.from([undecodable]), { contentType: 'image/png' });
    return key;
  };

  it('answers ?w= with 400 naming w, remembered instead of decoded again; the bytes stay served', async () => {
    const key = await storeUndecodable();
    const reads: string[] = [];
    const storeGet = store.get.bind(store);
    store.get = (k, range) => {
      reads.push(k);
      return storeGet(k, range);
    };
    try {
      for (let i = 0; i < 3; i++) {
        const res = await get(`/img/${key}?w=320`);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ field: 'w' });
        expect(res.json().error).toMatch(/^w: this image cannot be resized/);
      }
      // Read (and decoded) once, for the first request only.
      expect(reads.filter((k) => k === key)).toHaveLength(1);
      expect((await get(`/img/${key}?w=160`)).statusCode).toBe(400);
      expect(reads.filter((k) => k === key)).toHaveLength(1);
    } finally {
      store.get = storeGet;
    }
    const original = await get(`/img/${key}`);
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(undecodable)).toBe(true);
  });

  it('200 failing resizes leave no file descriptor open', { timeout: 120_000 }, async () => {
    const openFiles = async () => (await readdir('/proc/self/fd')).length;
    const keys = await Promise.all(Array.from({ length: 205 }, storeUndecodable));
    // A few first, so what the first resize opens for good (sharp's thread pool) is in the baseline.
    for (const key of keys.slice(0, 5)) expect((await get(`/img/${key}?w=160`)).statusCode).toBe(400);
    const baseline = await openFiles();
    for (const key of keys.slice(5)) expect((await get(`/img/${key}?w=160`)).statusCode).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await openFiles()).toBeLessThanOrEqual(baseline);
  });
});
