import type { Db, Tx } from './client.js';

/** A unit of work: its transaction, and work that may only happen once that transaction committed. */
export interface Transaction {
  readonly tx: Tx;
  /**
   * Runs `hook` after the commit, in the order registered; never when the transaction rolls back.
   * For effects outside the database (removing stored objects) that must not happen for a write
   * that did not.
   */
  afterCommit(hook: () => Promise<void>): void;
}

/** Runs `work` in one transaction, then its after-commit hooks; the result is `work`'s. */
export async function transaction<T>(db: Db, work: (t: Transaction) => Promise<T>): Promise<T> {
  const hooks: (() => Promise<void>)[] = [];
  const result = await db.transaction((tx) => work({ tx, afterCommit: (hook) => hooks.push(hook) }));
  for (const hook of hooks) await hook();
  return result;
}
