/**
 * Failure rigs for "nothing lost, nothing orphaned": thin wrappers around the real
 * store and database that fail on purpose when told to.
 */
import type { Readable } from 'node:stream';
import type { Database } from '../../src/db/client.js';
import {
  type ByteRange,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
  StorageError,
} from '../../src/storage/object-store.js';

/** Delegates to `inner`; each switch makes that operation fail like a broken disk or network. */
export class FailingStore implements ObjectStore {
  readonly kind: ObjectStore['kind'];
  fail = { put: false, get: false, delete: false };

  constructor(readonly inner: ObjectStore) {
    this.kind = inner.kind;
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }> {
    if (!this.fail.put) return this.inner.put(key, body, options);
    // Read a little, as a real backend would before the disk fills up.
    for await (const _ of body) break;
    throw new StorageError('simulated: no space left on device');
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    if (this.fail.get) return Promise.reject(new StorageError('simulated: store unreachable'));
    return this.inner.get(key, range);
  }

  head(key: string): Promise<ObjectInfo | undefined> {
    if (this.fail.get) return Promise.reject(new StorageError('simulated: store unreachable'));
    return this.inner.head(key);
  }

  delete(key: string): Promise<void> {
    if (this.fail.delete) return Promise.reject(new StorageError('simulated: delete refused'));
    return this.inner.delete(key);
  }

  list(prefix: string): AsyncIterable<ObjectInfo> {
    return this.inner.list(prefix);
  }

  sweepIncomplete(olderThan: Date): Promise<number> {
    return this.inner.sweepIncomplete?.(olderThan) ?? Promise.resolve(0);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The database with a switch: while `failing.transactions` is set, every transaction fails to start. */
export function failingDatabase(database: Database) {
  const failing = { transactions: false };
  const db = new Proxy(database.db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === 'transaction') {
        return (...args: unknown[]) =>
          failing.transactions
            ? Promise.reject(
                Object.assign(new Error('simulated: connection to the database lost'), {
                  code: 'ECONNRESET',
                }),
              )
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { database: { ...database, db } as Database, failing };
}
