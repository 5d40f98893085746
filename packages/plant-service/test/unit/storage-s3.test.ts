import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/storage/object-store.js';
import { S3Store } from '../../src/storage/s3-store.js';
import { describeObjectStore, failingBody } from '../helpers/storage-contract.js';
import { type S3Rig, startS3 } from '../helpers/storage-s3.js';

let rig: S3Rig;
describeObjectStore(
  'S3 (s3rver)',
  async () => {
    rig = await startS3();
    return rig.store();
  },
  () => rig.close(),
);

describe('S3 store spooling', () => {
  let rig: S3Rig;
  let spoolDir: string;
  let store: S3Store;
  beforeAll(async () => {
    rig = await startS3('spool-bucket');
    spoolDir = path.join(await mkdtemp(path.join(tmpdir(), 'plant-s3-spool-')), 'spool');
    store = new S3Store({
      endpoint: rig.endpoint,
      bucket: rig.bucket,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      spoolDir,
    });
  });
  afterAll(async () => {
    await store.close();
    await rig.close();
    await rm(path.dirname(spoolDir), { recursive: true, force: true });
  });

  it('leaves no spool file after a put, failed or not', async () => {
    await store.put('species/s/ok.jpg', Readable.from([Buffer.from('fine')]), { contentType: 'image/jpeg' });
    await expect(
      store.put('species/s/bad.jpg', failingBody(new Error('gone')), { contentType: 'image/jpeg' }),
    ).rejects.toThrow('gone');
    expect(await readdir(spoolDir)).toEqual([]);
    expect(await store.head('species/s/bad.jpg')).toBeUndefined();
  });

  it('sweeps spool files a crash left behind, once old enough', async () => {
    const old = path.join(spoolDir, 'plant-s3-crashed.part');
    await writeFile(old, 'half');
    await writeFile(path.join(spoolDir, 'plant-s3-in-progress.part'), 'half');
    await writeFile(path.join(spoolDir, 'unrelated.txt'), 'keep');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(old, hourAgo, hourAgo);
    await utimes(path.join(spoolDir, 'unrelated.txt'), hourAgo, hourAgo);
    expect(await store.sweepIncomplete(new Date(Date.now() - 60_000))).toBe(1);
    expect((await readdir(spoolDir)).sort()).toEqual(['plant-s3-in-progress.part', 'unrelated.txt']);
  });
});

describe('S3 store failures', () => {
  let other: S3Rig;
  beforeAll(async () => {
    other = await startS3('other-bucket');
  });
  afterAll(() => other.close());

  it('turns a missing bucket into StorageError', async () => {
    const store = new S3Store({
      endpoint: other.endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    await expect(
      store.put('species/a/x.jpg', Readable.from([Buffer.from('x')]), { contentType: 'image/jpeg' }),
    ).rejects.toBeInstanceOf(StorageError);
    await expect(store.get('species/a/x.jpg')).rejects.toBeInstanceOf(StorageError);
    await store.close();
  });

  it('turns an unreachable server into StorageError', async () => {
    const store = new S3Store({
      endpoint: 'http://127.0.0.1:9',
      bucket: 'b',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
    await expect(store.head('species/a/x.jpg')).rejects.toBeInstanceOf(StorageError);
    await store.close();
  });
});
