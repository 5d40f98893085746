/**
 * The filesystem backend: one file per object under a root folder (DATA_DIR/images), keys as
 * relative paths. It never reads or writes outside its root: keys are validated (keys.ts), the
 * joined path must stay under the root, no folder on the way may be a symlink (checked with
 * realpath, and folders are created one level at a time), and files are opened with O_NOFOLLOW.
 * Writes go to `.tmp/` first and are renamed into place after fsync, so an object appears whole
 * or not at all; leftovers of a crash in `.tmp/` are removed by sweepIncomplete().
 */
import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, type Stats } from 'node:fs';
import { lstat, mkdir, open, opendir, readdir, realpath, rename, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, assertValidPrefix } from './keys.js';
import {
  type ByteRange,
  InvalidObjectKey,
  type ObjectInfo,
  ObjectNotFound,
  type ObjectStore,
  type PutOptions,
  StorageError,
} from './object-store.js';
import { trackBody } from './tracked-body.js';

const TMP = '.tmp';
/** A folder removed under a put this many times in a row is an error, not a race. */
const FOLDER_RACE_ATTEMPTS = 8;

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** Errors that mean "there is no such object here" (missing, a symlink, a folder). */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR']);

export class FilesystemStore implements ObjectStore {
  readonly kind = 'filesystem' as const;
  /** The root with symlinks resolved, once it exists: every check compares against it. */
  private root: string | undefined;

  /** `root` must be absolute. Nothing is created until the first put. */
  constructor(private readonly configuredRoot: string) {
    if (!path.isAbsolute(configuredRoot)) throw new Error('FilesystemStore needs an absolute root');
  }

  async put(key: string, body: Readable, _options: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    const tracked = trackBody(body);
    let tmp: string | undefined;
    try {
      const root = await this.resolveRoot(true);
      const target = this.pathOf(root, key);
      await mkdir(path.join(root, TMP), { recursive: true });
      const part = path.join(root, TMP, `${randomUUID()}.part`);
      tmp = part;
      await pipeline(tracked.stream, createWriteStream(part, { flags: 'wx', mode: 0o644, flush: true }));
      // A delete in the same folders removes them once they are empty, so any step from creating
      // the folders to the rename can find one gone: start again from the root.
      for (let attempt = 1; ; attempt++) {
        try {
          await this.ensureParent(target);
          await rename(part, target);
          tmp = undefined;
          break;
        } catch (error) {
          if (errno(error) !== 'ENOENT' || attempt >= FOLDER_RACE_ATTEMPTS) throw error;
        }
      }
      await syncFolder(path.dirname(target));
      return { size: tracked.bytes };
    } catch (error) {
      if (tmp) await unlink(tmp).catch(() => {});
      if (!body.destroyed) body.destroy();
      if (tracked.error !== undefined) throw tracked.error;
      if (error instanceof StorageError) throw error;
      throw new StorageError(`filesystem store: could not write ${key}`, { cause: error });
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const file = this.pathOf(await this.resolveRoot(false), key);
      await this.checkParent(file);
      const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
      const stats = await handle.stat().catch(async (error) => {
        await handle.close();
        throw error;
      });
      if (!stats.isFile()) {
        await handle.close();
        throw new ObjectNotFound(`no object ${key}`);
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (error) {
      throw this.translate(error, key, 'read');
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const file = this.pathOf(await this.resolveRoot(false), key);
      await this.checkParent(file);
      const stats = await lstat(file);
      return stats.isFile() ? info(key, stats) : undefined;
    } catch (error) {
      const translated = this.translate(error, key, 'read');
      if (translated instanceof ObjectNotFound) return undefined;
      throw translated;
    }
  }

  async delete(key: string): Promise<void> {
    let file: string;
    let root: string;
    try {
      root = await this.resolveRoot(false);
      file = this.pathOf(root, key);
      await this.checkParent(file);
      await unlink(file);
    } catch (error) {
      const translated = this.translate(error, key, 'delete');
      if (translated instanceof ObjectNotFound) return;
      throw translated;
    }
    await removeEmptyParents(root, path.dirname(file));
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    assertValidPrefix(prefix);
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    try {
      const root = await this.resolveRoot(false);
      const start = folder === '' ? root : path.join(root, ...folder.split('/'));
      if (folder !== '') await this.checkParent(path.join(start, 'x'));
      for await (const key of walk(start, folder)) {
        if (!key.startsWith(prefix)) continue;
        const stats = await lstat(path.join(root, ...key.split('/'))).catch(() => undefined);
        if (stats?.isFile()) yield info(key, stats);
      }
    } catch (error) {
      const translated = this.translate(error, prefix, 'list');
      if (translated instanceof ObjectNotFound) return;
      throw translated;
    }
  }

  /** Removes write leftovers in `.tmp/` older than `olderThan` (a crash mid-upload); returns how many. */
  async sweepIncomplete(olderThan: Date): Promise<number> {
    const root = await this.resolveRoot(false).catch(() => undefined);
    if (!root) return 0;
    const folder = path.join(root, TMP);
    let removed = 0;
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      const file = path.join(folder, name);
      const stats = await lstat(file).catch(() => undefined);
      if (stats && stats.mtime < olderThan) {
        await unlink(file).then(
          () => removed++,
          () => {},
        );
      }
    }
    return removed;
  }

  async close(): Promise<void> {}

  /** The real root; with `create`, it is made first if missing. */
  private async resolveRoot(create: boolean): Promise<string> {
    if (this.root) return this.root;
    if (create) await mkdir(this.configuredRoot, { recursive: true });
    this.root = await realpath(this.configuredRoot);
    return this.root;
  }

  /** The absolute path of `key`, which must lie strictly inside the root. */
  private pathOf(root: string, key: string): string {
    assertValidKey(key);
    const full = path.join(root, ...key.split('/'));
    if (!full.startsWith(root + path.sep)) throw new InvalidObjectKey(`key escapes the store: ${key}`);
    return full;
  }

  /** The file's folder must be exactly where the key says: no symlinked folder on the way. */
  private async checkParent(file: string): Promise<void> {
    const parent = path.dirname(file);
    if ((await realpath(parent)) !== parent) throw new ObjectNotFound(`symlink on the way to ${file}`);
  }

  /** Creates the key's folders one level at a time, refusing symlinks and non-folders. */
  private async ensureParent(file: string): Promise<void> {
    const root = await this.resolveRoot(true);
    const relative = path.relative(root, path.dirname(file));
    let current = root;
    for (const segment of relative === '' ? [] : relative.split(path.sep)) {
      current = path.join(current, segment);
      let stats: Stats | undefined = await lstat(current).catch(() => undefined);
      if (!stats) {
        await mkdir(current).catch((error) => {
          if (errno(error) !== 'EEXIST') throw error;
        });
        stats = await lstat(current);
      }
      if (!stats.isDirectory()) throw new StorageError(`not a plain folder: ${current}`);
    }
  }

  private translate(error: unknown, key: string, action: string): Error {
    if (error instanceof StorageError) return error;
    if (ABSENT.has(errno(error) ?? '')) return new ObjectNotFound(`no object ${key}`, { cause: error });
    return new StorageError(`filesystem store: could not ${action} ${key}`, { cause: error });
  }
}

function info(key: string, stats: Stats): ObjectInfo {
  // Objects are written once under a fresh key, so size and modification time identify the bytes.
  return {
    key,
    size: stats.size,
    etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`,
    lastModified: stats.mtime,
  };
}

/** Folders emptied by a delete go too, up to (not including) the root. */
async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let current = folder; current.startsWith(root + path.sep); current = path.dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
  }
}

/** Keys of the plain files under `dir` (whose key prefix is `folder`), skipping dot-names and symlinks. */
async function* walk(dir: string, folder: string): AsyncIterable<string> {
  const handle = await opendir(dir);
  for await (const entry of handle) {
    if (entry.name.startsWith('.')) continue;
    const key = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
    else if (entry.isFile()) yield key;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
