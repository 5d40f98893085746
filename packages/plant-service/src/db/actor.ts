/**
 * Who is writing, for the change log. The log's triggers (migration 0014) read the writer from
 * transaction-local settings; this module holds the writer of the current unit of work (a request,
 * an import) in async context and sets those settings at the start of every transaction begun in
 * it, so services and repositories never pass it along. A write outside any actor (an operator's
 * SQL) is recorded as the database role's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.js';

export interface Actor {
  kind: 'user' | 'token' | 'import';
  userId?: string;
  tokenId?: string;
  /** Why, as the writer said (at most MAX_REASON_LENGTH characters). */
  reason?: string;
  /** The position of the change this write reverts. */
  reverts?: number;
}

/** The longest reason a writer may give. */
export const MAX_REASON_LENGTH = 500;

const context = new AsyncLocalStorage<() => Actor | undefined>();

/**
 * Runs `work` with `actor` (or what it returns when asked, for a request whose user is known only
 * after the context began) as the writer of every transaction it begins.
 */
export function withActor<T>(actor: Actor | (() => Actor | undefined), work: () => T): T {
  return context.run(typeof actor === 'function' ? actor : () => actor, work);
}

/** The current writer, if any. */
export function currentActor(): Actor | undefined {
  return context.getStore()?.();
}

/** The same unit of work, with more said about it (a revert names the change it reverts). */
export function withMoreOfActor<T>(more: Partial<Actor>, work: () => T): T {
  const outer = currentActor();
  return withActor(() => outer && { ...outer, ...more }, work);
}

/** Sets the transaction-local settings the change log's triggers read. */
export async function declareActor(tx: Tx, actor: Actor): Promise<void> {
  await tx.execute(sql`select
    set_config('plants.actor_kind', ${actor.kind}, true),
    set_config('plants.actor_user', ${actor.userId ?? ''}, true),
    set_config('plants.actor_token', ${actor.tokenId ?? ''}, true),
    set_config('plants.change_reason', ${actor.reason ?? ''}, true),
    set_config('plants.reverts', ${actor.reverts === undefined ? '' : String(actor.reverts)}, true)`);
}

/**
 * Makes every transaction `db` begins declare the current actor first. Nested transactions
 * (savepoints) are begun on a transaction handle and inherit the settings.
 */
export function attributeWrites(db: Db): Db {
  const begin = db.transaction.bind(db);
  db.transaction = ((work, config) =>
    begin(async (tx) => {
      const actor = currentActor();
      if (actor) await declareActor(tx, actor);
      return work(tx);
    }, config)) as Db['transaction'];
  return db;
}
