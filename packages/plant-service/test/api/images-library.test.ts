/**
 * sharp is loaded on the first image decoded or resized. When it cannot load (a broken native
 * install), an upload or a resized copy answers 503 and leaves nothing behind, not a 400 that
 * blames the image; a failed load is tried again by the next request.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { images } from '../../src/db/tables.js';
import { originalKey } from '../../src/resources/images/image-keys.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { jpeg } from '../helpers/storage-images.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

let t: TestApp;
let dir: string;
let store: FilesystemStore;
let upload: ReturnType<typeof uploader>;
let species: { id: string };
let photo: Buffer;

beforeAll(async () => {
  // The photo is made with the real sharp before any test breaks it.
  photo = await jpeg(120, 80);
  dir = await mkdtemp(path.join(tmpdir(), 'plant-images-library-'));
  store = new FilesystemStore(path.join(dir, 'images'));
  t = await createTestApp({}, { store });
  const writer = await t.cookie();
  upload = uploader(t, writer);
  const make = fixtures(t, writer);
  species = await make.species((await make.family('Asteraceae')).id, 'Calendula officinalis');
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const breakSharp = () =>
  vi.doMock('sharp', () => {
    throw new Error('libvips could not be loaded');
  });
const fields = () => ({ entity_type: 'species', entity_id: species.id });
const records = () => t.database.db.select().from(images).where(eq(images.entity_id, species.id));

describe('an image library that cannot load', () => {
  it('makes uploads and resized copies answer 503 and leaves nothing behind; once it loads, both work', async () => {
    // Nothing in this file has loaded sharp through the service before this test.
    const stored = originalKey('species', species.id, randomUUID(), 'jpeg');
    await store.put(stored, Readable.from([photo]), { contentType: 'image/jpeg' });
    breakSharp();

    const res = await upload(fields(), photo);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('image processing is unavailable; try again later');
    expect(await records()).toEqual([]);
    const copy = await t.app.inject({ url: `/img/${stored}?w=160` });
    expect(copy.statusCode, copy.body).toBe(503);
    expect(copy.json().error).toBe('image processing is unavailable; try again later');
    expect(await storedKeys(store)).toEqual([stored]);

    vi.doUnmock('sharp');
    expect((await upload(fields(), photo)).statusCode).toBe(200);
    expect(await records()).toHaveLength(1);
    const made = await t.app.inject({ url: `/img/${stored}?w=160` });
    expect(made.statusCode).toBe(200);
    expect(made.headers['content-type']).toBe('image/webp');
  });
});
