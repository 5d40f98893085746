/** The image endpoints end to end on the S3 backend, configured through the environment. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Store } from '../../src/storage/s3-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';
import { jpeg } from '../helpers/storage-images.js';
import { type S3Rig, startS3 } from '../helpers/storage-s3.js';
import { storedKeys, uploader } from '../helpers/storage-upload.js';

let rig: S3Rig;
let t: TestApp;
let bucket: S3Store;

beforeAll(async () => {
  rig = await startS3();
  // No store passed in: the app opens the S3 backend from STORAGE_BACKEND=s3 and S3_*.
  t = await createTestApp(rig.env);
  bucket = rig.store();
});
afterAll(async () => {
  await t.close();
  await rig.close();
});

describe('images on S3', () => {
  it('uploads, serves (with ranges, 304 and resizing), and deletes through the bucket', async () => {
    const writer = await t.cookie();
    const admin = await t.cookie({ admin: true });
    const make = fixtures(t, writer);
    const family = await make.family('Rosaceae');
    const rose = await make.species(family.id, 'Rosa canina');
    const photo = await jpeg(640, 480);

    const res = await uploader(t, writer)({ entity_type: 'species', entity_id: rose.id }, photo);
    expect(res.statusCode, res.body).toBe(200);
    const image = res.json();
    expect(await storedKeys(bucket)).toEqual([image.store_key]);
    expect((await bucket.head(image.store_key))?.size).toBe(photo.length);

    const got = await t.app.inject({ url: `/img/${image.store_key}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['content-length']).toBe(String(photo.length));
    expect(got.rawPayload.equals(photo)).toBe(true);
    const etag = got.headers.etag as string;
    expect(
      (await t.app.inject({ url: `/img/${image.store_key}`, headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);
    const part = await t.app.inject({ url: `/img/${image.store_key}`, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(photo.subarray(10, 20))).toBe(true);

    const small = await t.app.inject({ url: `/img/${image.store_key}?w=160` });
    expect(small.statusCode).toBe(200);
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 160,
      height: 120,
    });
    expect(await storedKeys(bucket)).toHaveLength(2);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/images/${image.id}`,
      headers: { cookie: admin },
    });
    expect(del.statusCode).toBe(200);
    expect(await storedKeys(bucket)).toEqual([]);
    expect((await t.app.inject({ url: `/img/${image.store_key}` })).statusCode).toBe(404);
  });
});
