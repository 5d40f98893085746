/** The ObjectStore contract, run against each backend (test/unit/storage-*.test.ts). */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidObjectKey, ObjectNotFound, type ObjectStore } from '../../src/storage/object-store.js';

export const BAD_KEYS = [
  '',
  '../outside.jpg',
  'species/../../outside.jpg',
  '/etc/passwd',
  'species//x.jpg',
  'species/./x.jpg',
  'species\\..\\x.jpg',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e/x.jpg',
  '.tmp/x.part',
  'species/.hidden',
  'species/x.jpg\0.png',
  `species/${'a'.repeat(600)}`,
];

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keys(store: ObjectStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(object.key);
  return found.sort();
}

/** A body that yields some bytes, then fails: the store must keep nothing. */
export function failingBody(error: Error, bytes = 100_000): Readable {
  return Readable.from(
    (async function* () {
      yield randomBytes(bytes);
      throw error;
    })(),
  );
}

export function describeObjectStore(
  name: string,
  open: () => Promise<ObjectStore>,
  close: () => Promise<void>,
) {
  describe(`${name} object store`, () => {
    let store: ObjectStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(close);

    it('puts a stream and gets the same bytes back, with size and ETag from head', async () => {
      const data = randomBytes(300_000);
      const put = await store.put(
        'species/a/one.jpg',
        Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
        {
          contentType: 'image/jpeg',
        },
      );
      expect(put.size).toBe(data.length);
      expect((await readAll(await store.get('species/a/one.jpg'))).equals(data)).toBe(true);
      const info = await store.head('species/a/one.jpg');
      expect(info).toMatchObject({ key: 'species/a/one.jpg', size: data.length });
      expect(info?.etag).toMatch(/^"[^"]+"$/);
      expect(info?.lastModified).toBeInstanceOf(Date);
    });

    it('gets a byte range', async () => {
      const data = Buffer.from('0123456789abcdefghij');
      await store.put('species/a/range.jpg', Readable.from([data]), { contentType: 'image/jpeg' });
      expect((await readAll(await store.get('species/a/range.jpg', { start: 5, end: 9 }))).toString()).toBe(
        '56789',
      );
      expect((await readAll(await store.get('species/a/range.jpg', { start: 19, end: 19 }))).toString()).toBe(
        'j',
      );
    });

    it('answers a missing key: head undefined, get ObjectNotFound, delete quietly', async () => {
      expect(await store.head('species/a/missing.jpg')).toBeUndefined();
      await expect(store.get('species/a/missing.jpg')).rejects.toBeInstanceOf(ObjectNotFound);
      await expect(store.delete('species/a/missing.jpg')).resolves.toBeUndefined();
    });

    it('replaces an object put again under the same key, and deletes', async () => {
      await store.put('family/b/x.png', Readable.from([Buffer.from('first')]), { contentType: 'image/png' });
      await store.put('family/b/x.png', Readable.from([Buffer.from('second!')]), {
        contentType: 'image/png',
      });
      expect(await text(await store.get('family/b/x.png'))).toBe('second!');
      await store.delete('family/b/x.png');
      expect(await store.head('family/b/x.png')).toBeUndefined();
    });

    it('lists by prefix', async () => {
      for (const key of [
        'cultivar/c1/1.jpg',
        'cultivar/c1/2.jpg',
        'cultivar/c2/3.jpg',
        'cultivar/c10/4.jpg',
      ]) {
        await store.put(key, Readable.from([Buffer.from(key)]), { contentType: 'image/jpeg' });
      }
      expect(await keys(store, 'cultivar/c1/')).toEqual(['cultivar/c1/1.jpg', 'cultivar/c1/2.jpg']);
      expect(await keys(store, 'cultivar/c1')).toEqual([
        'cultivar/c1/1.jpg',
        'cultivar/c1/2.jpg',
        'cultivar/c10/4.jpg',
      ]);
      expect(await keys(store, 'cultivar/')).toHaveLength(4);
      expect(await keys(store, 'nothing/here/')).toEqual([]);
      const all = await keys(store, '');
      expect(all).toEqual(expect.arrayContaining(['cultivar/c2/3.jpg', 'species/a/one.jpg']));
      const info = [];
      for await (const o of store.list('cultivar/c2/')) info.push(o);
      expect(info[0]).toMatchObject({ key: 'cultivar/c2/3.jpg', size: 'cultivar/c2/3.jpg'.length });
    });

    it('keeps nothing when the body fails midway, and rethrows the body’s own error', async () => {
      const error = new Error('body broke');
      await expect(
        store.put('species/fail/x.jpg', failingBody(error), { contentType: 'image/jpeg' }),
      ).rejects.toBe(error);
      expect(await store.head('species/fail/x.jpg')).toBeUndefined();
      expect(await keys(store, 'species/fail/')).toEqual([]);
    });

    it('streams a body larger than one multipart part (6 MiB)', async () => {
      const part = randomBytes(64 * 1024);
      const count = 96;
      const body = Readable.from(
        (async function* () {
          for (let i = 0; i < count; i++) yield part;
        })(),
      );
      expect((await store.put('species/big/x.jpg', body, { contentType: 'image/jpeg' })).size).toBe(
        part.length * count,
      );
      const back = await readAll(await store.get('species/big/x.jpg'));
      expect(back.length).toBe(part.length * count);
      expect(back.subarray(-part.length).equals(part)).toBe(true);
      await store.delete('species/big/x.jpg');
    });

    it('refuses keys that could escape or are not plain', async () => {
      for (const key of BAD_KEYS) {
        await expect(store.get(key), key).rejects.toBeInstanceOf(InvalidObjectKey);
        await expect(store.head(key), key).rejects.toBeInstanceOf(InvalidObjectKey);
        await expect(store.delete(key), key).rejects.toBeInstanceOf(InvalidObjectKey);
        await expect(
          store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'image/jpeg' }),
          key,
        ).rejects.toBeInstanceOf(InvalidObjectKey);
      }
      await expect(
        (async () => {
          for await (const _ of store.list('../')) break;
        })(),
      ).rejects.toBeInstanceOf(InvalidObjectKey);
    });
  });
}
