/**
 * Nothing lost, nothing orphaned: a failed object write leaves no record, a failed
 * record write leaves no object, and a crash in between leaves an orphan that the sweep removes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { images } from '../../src/db/tables.js';
import { startOrphanSweep, sweepOrphans } from '../../src/resources/images/orphan-sweep.js';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { FailingStore, failingDatabase } from '../helpers/storage-failing.js';
import { jpeg } from '../helpers/storage-images.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

const HOUR = 3_600_000;

let t: TestApp;
let dir: string;
let store: FailingStore;
let failing: { transactions: boolean };
let admin: string;
let upload: ReturnType<typeof uploader>;
let species: { id: string };
let photo: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-images-fail-'));
  store = new FailingStore(new FilesystemStore(path.join(dir, 'images')));
  t = await createTestApp(
    {},
    {
      store,
      wrapDatabase: (database) => {
        const wrapped = failingDatabase(database);
        failing = wrapped.failing;
        return wrapped.database;
      },
    },
  );
  const writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  upload = uploader(t, writer);
  const make = fixtures(t, writer);
  const family = await make.family('Asteraceae');
  species = await make.species(family.id, 'Calendula officinalis');
  photo = await jpeg(120, 80);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  store.fail = { put: false, get: false, delete: false };
  failing.transactions = false;
  // Each test starts from an empty store and no image records.
  await sweepOrphans(t.database, store, { graceMs: 0, now: new Date(Date.now() + HOUR) });
  await t.database.db.delete(images);
  await sweepOrphans(t.database, store, { graceMs: 0, now: new Date(Date.now() + HOUR) });
});

const fields = () => ({ entity_type: 'species', entity_id: species.id });
const records = () => t.database.db.select().from(images).where(eq(images.entity_id, species.id));
const tmpFiles = () => readdir(path.join(dir, 'images', '.tmp')).catch(() => []);

describe('an upload whose object write fails', () => {
  it('answers 503 and leaves no record and no object', async () => {
    store.fail.put = true;
    const res = await upload(fields(), photo);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('image storage is unavailable; try again later');
    expect(await records()).toEqual([]);
    expect(await storedKeys(store)).toEqual([]);
    expect(await tmpFiles()).toEqual([]);
  });
});

describe('an upload whose record write fails', () => {
  it('answers 503 with Retry-After and deletes the object again', async () => {
    failing.transactions = true;
    const res = await upload(fields(), photo);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: 'the database is unavailable; try again shortly', retry_after: 1 });
    failing.transactions = false;
    expect(await records()).toEqual([]);
    expect(await storedKeys(store)).toEqual([]);
  });
});

describe('a crash between object and record', () => {
  it('leaves at most an orphan object, which the sweep removes after the grace period', async () => {
    const kept = (await upload(fields(), photo)).json();
    expect((await t.app.inject({ url: `/img/${kept.store_key}?w=160` })).statusCode).toBe(200);

    // The record write fails and so does the clean-up: what a crash between the two leaves.
    failing.transactions = true;
    store.fail.delete = true;
    expect((await upload(fields(), photo)).statusCode).toBe(503);
    failing.transactions = false;
    store.fail.delete = false;
    const orphans = (await storedKeys(store)).filter(
      (k) => !k.startsWith(kept.store_key.replace(/\.jpg$/, '')),
    );
    expect(orphans).toHaveLength(1);
    expect(await records()).toHaveLength(1);

    // A resized copy whose image is gone, and an object that is not an image key.
    const ghost = `species/${species.id}/${randomUUID()}.w320.webp`;
    await store.put(ghost, Readable.from([Buffer.from('webp')]), { contentType: 'image/webp' });
    await store.put('exports/readme.txt', Readable.from([Buffer.from('not ours')]), {
      contentType: 'text/plain',
    });

    // Within the grace period nothing is touched: the upload might still be committing.
    const young = await sweepOrphans(t.database, store, { graceMs: HOUR });
    expect(young.orphans).toEqual([]);
    expect(young.young).toBe(5);

    const dry = await sweepOrphans(t.database, store, {
      graceMs: HOUR,
      now: new Date(Date.now() + 2 * HOUR),
      dryRun: true,
    });
    expect(dry.orphans.sort()).toEqual([...orphans, ghost].sort());
    expect(await storedKeys(store)).toHaveLength(5);

    const swept = await sweepOrphans(t.database, store, {
      graceMs: HOUR,
      now: new Date(Date.now() + 2 * HOUR),
    });
    expect(swept).toMatchObject({ scanned: 5, foreign: 1, young: 0 });
    expect(swept.orphans.sort()).toEqual([...orphans, ghost].sort());
    expect(await storedKeys(store)).toEqual(
      [kept.store_key, kept.store_key.replace(/\.jpg$/, '.w160.webp'), 'exports/readme.txt'].sort(),
    );
    expect((await t.app.inject({ url: `/img/${kept.store_key}` })).statusCode).toBe(200);
    await store.delete('exports/readme.txt');
  });

  it('the service sweeps periodically', async () => {
    store.fail.delete = true;
    failing.transactions = true;
    await upload(fields(), photo);
    store.fail.delete = false;
    failing.transactions = false;
    expect(await storedKeys(store)).toHaveLength(1);
    const stop = startOrphanSweep(t.database, store, { intervalMs: 20, graceMs: 1 }, t.app.log);
    try {
      await expect.poll(() => storedKeys(store), { timeout: 5_000, interval: 20 }).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('deleting an image whose object cannot be deleted', () => {
  it('removes the record; the object is an orphan for the sweep', async () => {
    const image = (await upload(fields(), photo)).json();
    store.fail.delete = true;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/images/${image.id}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    store.fail.delete = false;
    expect(await records()).toEqual([]);
    expect(await storedKeys(store)).toEqual([image.store_key]);
    const swept = await sweepOrphans(t.database, store, {
      graceMs: HOUR,
      now: new Date(Date.now() + 2 * HOUR),
    });
    expect(swept.orphans).toEqual([image.store_key]);
    expect(await storedKeys(store)).toEqual([]);
  });
});

describe('reading when the store is down', () => {
  it('answers 503 on /img', async () => {
    const image = (await upload(fields(), photo)).json();
    store.fail.get = true;
    const res = await t.app.inject({ url: `/img/${image.store_key}` });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/unavailable/);
  });
});
