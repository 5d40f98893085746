import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { ObjectNotFound, StorageError } from '../../src/storage/object-store.js';
import { describeObjectStore, failingBody, readAll } from '../helpers/storage-contract.js';

let dir: string;
describeObjectStore(
  'filesystem',
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'plant-fs-store-'));
    return new FilesystemStore(path.join(dir, 'images'));
  },
  () => rm(dir, { recursive: true, force: true }),
);

describe('filesystem store: staying inside its root', () => {
  let base: string;
  let root: string;
  let outside: string;
  let store: FilesystemStore;
  const body = (s: string) => Readable.from([Buffer.from(s)]);

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'plant-fs-escape-'));
    root = path.join(base, 'images');
    outside = path.join(base, 'outside');
    await mkdir(path.join(outside, 'x'), { recursive: true });
    await writeFile(path.join(outside, 'x', 'secret.jpg'), 'secret');
    await writeFile(path.join(outside, 'secret.jpg'), 'secret');
    store = new FilesystemStore(root);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('creates nothing before the first put', async () => {
    expect(await store.head('species/a/b.jpg')).toBeUndefined();
    await expect(store.get('species/a/b.jpg')).rejects.toBeInstanceOf(ObjectNotFound);
    await store.delete('species/a/b.jpg');
    for await (const _ of store.list('')) throw new Error('nothing to list');
    expect(existsSync(root)).toBe(false);
  });

  it('does not follow a symlinked folder out of the root', async () => {
    await store.put('family/real/a.jpg', body('inside'), { contentType: 'image/jpeg' });
    await symlink(outside, path.join(root, 'species'));
    expect(await store.head('species/x/secret.jpg')).toBeUndefined();
    await expect(store.get('species/x/secret.jpg')).rejects.toBeInstanceOf(ObjectNotFound);
    await store.delete('species/x/secret.jpg');
    expect(await readFile(path.join(outside, 'x', 'secret.jpg'), 'utf8')).toBe('secret');
    await expect(
      store.put('species/x/new.jpg', body('pwned'), { contentType: 'image/jpeg' }),
    ).rejects.toBeInstanceOf(StorageError);
    expect(existsSync(path.join(outside, 'x', 'new.jpg'))).toBe(false);
    const listed: string[] = [];
    for await (const o of store.list('')) listed.push(o.key);
    expect(listed).toEqual(['family/real/a.jpg']);
    const fromLink: string[] = [];
    for await (const o of store.list('species/')) fromLink.push(o.key);
    expect(fromLink).toEqual([]);
  });

  it('does not follow a symlinked file', async () => {
    await symlink(path.join(outside, 'secret.jpg'), path.join(root, 'family', 'real', 'link.jpg'));
    expect(await store.head('family/real/link.jpg')).toBeUndefined();
    await expect(store.get('family/real/link.jpg')).rejects.toBeInstanceOf(ObjectNotFound);
  });

  it('a failed put leaves no partial file behind', async () => {
    await expect(
      store.put('family/real/partial.jpg', failingBody(new Error('client went away')), {
        contentType: 'image/jpeg',
      }),
    ).rejects.toThrow('client went away');
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect(existsSync(path.join(root, 'family', 'real', 'partial.jpg'))).toBe(false);
  });

  it('removes folders emptied by a delete, never the root', async () => {
    await store.put('cultivar/c/only.png', body('x'), { contentType: 'image/png' });
    await store.delete('cultivar/c/only.png');
    expect(existsSync(path.join(root, 'cultivar'))).toBe(false);
    expect(existsSync(root)).toBe(true);
    expect((await readAll(await store.get('family/real/a.jpg'))).toString()).toBe('inside');
  });

  it('keeps every put while deletes in the same folders remove them as they empty', async () => {
    // Each delete empties its folders and removes them, racing the puts that need them.
    const rounds = 150;
    const folder = (round: number) => `cultivar/r${round % 3}/${round % 7}`;
    for (let round = 0; round < rounds; round++) {
      const old = `${folder(round)}/old-${round}.png`;
      await store.put(old, body('old'), { contentType: 'image/png' });
      await Promise.all([
        store.delete(old),
        store.put(`${folder(round)}/new-${round}.png`, body('new'), { contentType: 'image/png' }),
        store.delete(old),
        store.put(`${folder(round + 1)}/next-${round}.png`, body('next'), { contentType: 'image/png' }),
      ]);
      await Promise.all([
        store.delete(`${folder(round)}/new-${round}.png`),
        store.delete(`${folder(round + 1)}/next-${round}.png`),
      ]);
    }
    const left: string[] = [];
    for await (const o of store.list('cultivar/r')) left.push(o.key);
    expect(left).toEqual([]);
    await store.put(`${folder(0)}/kept.png`, body('kept'), { contentType: 'image/png' });
    expect((await readAll(await store.get(`${folder(0)}/kept.png`))).toString()).toBe('kept');
  });

  it('sweeps interrupted writes older than the cutoff from .tmp', async () => {
    const old = path.join(root, '.tmp', 'crashed.part');
    const fresh = path.join(root, '.tmp', 'in-progress.part');
    await writeFile(old, 'half');
    await writeFile(fresh, 'half');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(old, hourAgo, hourAgo);
    expect(await store.sweepIncomplete(new Date(Date.now() - 60_000))).toBe(1);
    expect(await readdir(path.join(root, '.tmp'))).toEqual(['in-progress.part']);
  });
});
