/**
 * Queries of the change log (table `changes`, written only by the triggers of migration 0014):
 * the feed in position order, a record's history newest first, later changes of a record, the
 * pruning. Entries of transactions still running have no position and are never read here.
 */
import { and, asc, count, desc, eq, gt, isNotNull, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { apiTokens, changeCounter, changes, users } from '../../db/tables.js';

/** An entry as stored, with what is known of its writer. */
export interface ChangeRow {
  id: number;
  position: number;
  committed_at: Date;
  kind: string;
  record_id: string;
  slug: string | null;
  op: 'create' | 'update' | 'delete';
  fields: Record<string, { old: unknown; new: unknown }>;
  actor_kind: 'user' | 'token' | 'import' | 'database';
  actor_user_id: string | null;
  actor_token_id: string | null;
  actor_role: string;
  reason: string | null;
  reverts: number | null;
  user_name: string | null;
  user_nickname: string | null;
  user_email: string | null;
  token_name: string | null;
}

const writer = alias(users, 'writer');
const token = alias(apiTokens, 'writer_token');

const entryColumns = {
  id: changes.id,
  position: changes.position,
  committed_at: changes.committed_at,
  kind: changes.kind,
  record_id: changes.record_id,
  slug: changes.slug,
  op: changes.op,
  fields: changes.fields,
  actor_kind: changes.actor_kind,
  actor_user_id: changes.actor_user_id,
  actor_token_id: changes.actor_token_id,
  actor_role: changes.actor_role,
  reason: changes.reason,
  reverts: changes.reverts,
  user_name: writer.name,
  user_nickname: writer.nickname,
  user_email: writer.email,
  token_name: token.name,
};

function entries(ex: Executor) {
  return ex
    .select(entryColumns)
    .from(changes)
    .leftJoin(writer, eq(writer.id, changes.actor_user_id))
    .leftJoin(token, eq(token.id, changes.actor_token_id));
}

// Committed entries always have their position and time; the columns are nullable only for the
// moment between an entry's insert and its transaction's commit.
const committed = (rows: unknown[]) => rows as ChangeRow[];

export const changeRepository = {
  /** Committed entries after `after`, in position (commit) order. */
  async after(ex: Executor, after: number, limit: number): Promise<ChangeRow[]> {
    return committed(
      await entries(ex).where(gt(changes.position, after)).orderBy(asc(changes.position)).limit(limit),
    );
  },

  /** The last position handed out and the last one pruned. */
  async counter(ex: Executor): Promise<{ last_position: number; pruned_through: number }> {
    const [row] = await ex
      .select({ last_position: changeCounter.last_position, pruned_through: changeCounter.pruned_through })
      .from(changeCounter);
    return row ?? { last_position: 0, pruned_through: 0 };
  },

  /** One page of a record's committed entries, newest first, and how many there are. */
  async ofRecord(
    ex: Executor,
    recordId: string,
    page: number,
    perPage: number,
  ): Promise<{ rows: ChangeRow[]; total: number }> {
    const where = and(eq(changes.record_id, recordId), isNotNull(changes.position));
    const [rows, [total]] = await Promise.all([
      entries(ex)
        .where(where)
        .orderBy(desc(changes.position))
        .limit(perPage)
        .offset((page - 1) * perPage),
      ex.select({ n: count() }).from(changes).where(where),
    ]);
    return { rows: committed(rows), total: Number(total?.n ?? 0) };
  },

  async hasEntries(ex: Executor, recordId: string): Promise<boolean> {
    const rows = await ex
      .select({ id: changes.id })
      .from(changes)
      .where(and(eq(changes.record_id, recordId), isNotNull(changes.position)))
      .limit(1);
    return rows.length > 0;
  },

  async atPosition(ex: Executor, position: number): Promise<ChangeRow | undefined> {
    return committed(await entries(ex).where(eq(changes.position, position)).limit(1))[0];
  },

  /** The record's entries after `position`: which fields each touched. */
  async laterOf(
    ex: Executor,
    recordId: string,
    position: number,
  ): Promise<{ position: number; op: string; fields: Record<string, unknown> }[]> {
    const rows = await ex
      .select({ position: changes.position, op: changes.op, fields: changes.fields })
      .from(changes)
      .where(and(eq(changes.record_id, recordId), gt(changes.position, position)))
      .orderBy(asc(changes.position));
    return rows as { position: number; op: string; fields: Record<string, unknown> }[];
  },

  /** The id of the last entry this transaction wrote about the record (read again after commit). */
  async lastWrittenHere(ex: Executor, recordId: string): Promise<number | undefined> {
    const [row] = await ex
      .select({ id: sql<number>`max(${changes.id})`.mapWith(Number) })
      .from(changes)
      .where(
        and(
          eq(changes.record_id, recordId),
          sql`${changes.txid} = pg_current_xact_id()::text::bigint`,
          sql`${changes.position} is null`,
        ),
      );
    return row?.id ?? undefined;
  },

  async byId(ex: Executor, id: number): Promise<ChangeRow | undefined> {
    return committed(await entries(ex).where(eq(changes.id, id)).limit(1))[0];
  },

  /**
   * Deletes the entries committed before `before`; the counter remembers the last position
   * deleted, so a feed reader asking from before it learns that it missed entries.
   */
  async prune(ex: Executor, before: Date): Promise<{ deleted: number; pruned_through: number }> {
    // A prefix of the log: everything up to the last position committed before `before`.
    const [last] = await ex
      .select({ position: sql<number | null>`max(${changes.position})`.mapWith(Number) })
      .from(changes)
      .where(lt(changes.committed_at, before));
    const through = last?.position ?? 0;
    const deleted =
      through > 0
        ? (await ex.delete(changes).where(lte(changes.position, through)).returning({ id: changes.id }))
            .length
        : 0;
    const [counter] = await ex
      .update(changeCounter)
      .set({ pruned_through: sql`greatest(${changeCounter.pruned_through}, ${through})` })
      .returning({ pruned_through: changeCounter.pruned_through });
    return { deleted, pruned_through: counter?.pruned_through ?? through };
  },
};
