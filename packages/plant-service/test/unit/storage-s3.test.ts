import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/storage/object-store.js';
import { S3Store } from '../../src/storage/s3-store.js';
import { describeObjectStore } from '../helpers/storage-contract.js';
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
