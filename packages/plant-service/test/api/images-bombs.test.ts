/**
 * Decode bombs: small files that describe far more pixels than they hold. Their decoded size is
 * read from the header and refused (413 naming IMAGE_MAX_DECODED_MB) before any decoding, and
 * while several arrive at once, `/img` reads (plain and resized) stay fast.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';
import { fixtures } from '../helpers/fixtures.js';
import { jpeg, pngBomb } from '../helpers/storage-images.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

let t: TestApp;
let dir: string;
let store: FilesystemStore;
let upload: ReturnType<typeof uploader>;
let speciesId: string;
let small: { store_key: string };
let bomb: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-bombs-'));
  store = new FilesystemStore(path.join(dir, 'images'));
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MINUTE: '0' }, { store });
  const writer = await t.cookie();
  const make = fixtures(t, writer);
  const family = await make.family('Bombaceae');
  speciesId = (await make.species(family.id, 'Bomba explodens')).id;
  upload = uploader(t, writer);
  small = (await upload({ entity_type: 'species', entity_id: speciesId }, await jpeg(64, 64))).json();
  // 7000×7000 is under the 50-megapixel limit, but RGBA at 16 bits is 392 MB of pixels.
  bomb = await pngBomb(7_000, 7_000);
}, 120_000);
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`decode bombs (${backend})`, () => {
  it('refuses a 400 KB PNG of 392 MB of pixels with 413 naming the limit, and keeps nothing', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = await storedKeys(store);
    const res = await upload({ entity_type: 'species', entity_id: speciesId }, bomb, 'bomb.png', 'image/png');
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ field: 'file', limit: 150 * 1024 * 1024 });
    expect(res.json().error).toBe(
      'file: decodes to 392000000 bytes of pixels (7000×7000 pixels, 4 channels, 2 bytes per sample), ' +
        `more than the limit of ${150 * 1024 * 1024} bytes (IMAGE_MAX_DECODED_MB)`,
    );
    expect(await storedKeys(store)).toEqual(before);
  });

  it('keeps /img reads fast while six bombs arrive at once', async () => {
    const bombs = Array.from({ length: 6 }, () =>
      upload({ entity_type: 'species', entity_id: speciesId }, bomb, 'bomb.png', 'image/png'),
    );
    const slowest = { plain: 0, resized: 0 };
    for (let i = 0; i < 10; i++) {
      for (const [kind, url] of [
        ['plain', `/img/${small.store_key}`],
        ['resized', `/img/${small.store_key}?w=160`],
      ] as const) {
        const started = performance.now();
        const res = await t.app.inject({ url });
        expect(res.statusCode).toBe(200);
        slowest[kind] = Math.max(slowest[kind], performance.now() - started);
      }
    }
    for (const res of await Promise.all(bombs)) expect(res.statusCode).toBe(413);
    // Decoded, each bomb took seconds and held the reads behind it for tens of seconds; the bound
    // leaves room for a loaded machine.
    expect(slowest.plain).toBeLessThan(5_000);
    expect(slowest.resized).toBeLessThan(5_000);
  });

  it('limits by decoded bytes, not pixels: IMAGE_MAX_DECODED_MB=1 refuses an 800×600 RGB JPEG', async () => {
    const strict = await createTestApp({ IMAGE_MAX_DECODED_MB: '1' }, { store });
    try {
      const writer = await strict.cookie();
      const make = fixtures(strict, writer);
      const family = await make.family('Parvaceae');
      const species = await make.species(family.id, 'Parva minima');
      const send = uploader(strict, writer);
      const big = await send({ entity_type: 'species', entity_id: species.id }, await jpeg(800, 600));
      expect(big.statusCode).toBe(413);
      expect(big.json().error).toContain('800×600 pixels, 3 channels, 1 byte per sample');
      const fits = await send({ entity_type: 'species', entity_id: species.id }, await jpeg(400, 300));
      expect(fits.statusCode, fits.body).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
