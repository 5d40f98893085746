/**
 * The change log's rules: the feed (refused once it was pruned past where the reader is), a
 * record's history (a deleted record's too, by uuid), what a reader sees of each writer, and
 * revert: the fields a change touched go back to their values before it, in a new change that
 * names it; refused with 409 where later changes touched the same fields, unless overwriting. A
 * delete is reverted by restoring the record with its id and slug, a create by deleting it.
 */
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { withMoreOfActor } from '../../db/actor.js';
import type { Database } from '../../db/client.js';
import { PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, sqlState } from '../../db/errors.js';
import { cultivars, families, species, suppliers } from '../../db/tables.js';
import { transaction } from '../../db/transaction.js';
import { Conflict, Forbidden, Gone, NotFound } from '../../errors.js';
import { isUuid } from '../../lib/slug.js';
import type { Catalogue } from '../catalogue.js';
import { type ChangeRow, changeRepository as repo } from './repository.js';
import type { Change, ChangeFeed, ChangeFeedQuery, HistoryPage, HistoryQuery } from './schemas.js';

/** Who reads: administrators see writers' e-mail addresses, tokens and database roles. */
export interface Viewer {
  admin: boolean;
}

/** The record kinds with a history, by their path segment. */
export const HISTORY_KINDS = {
  families: { kind: 'family', noun: 'family', table: families },
  species: { kind: 'species', noun: 'species', table: species },
  cultivars: { kind: 'cultivar', noun: 'cultivar', table: cultivars },
  suppliers: { kind: 'supplier', noun: 'supplier', table: suppliers },
} as const;
export type HistoryKind = keyof typeof HISTORY_KINDS;

/** Columns a revert never writes: those the log leaves out (migration 0014), and generated ones. */
const NOT_RESTORED = new Set(['json_text', 'updated_at']);

function restorableColumns(table: PgTable): Set<string> {
  return new Set(
    Object.values(getTableColumns(table))
      .filter((column) => !column.generated && !NOT_RESTORED.has(column.name))
      .map((column) => column.name),
  );
}

export function toChange(row: ChangeRow, viewer: Viewer): Change {
  const byUser = row.actor_kind === 'user' || row.actor_kind === 'token';
  return {
    position: row.position,
    committed_at: row.committed_at,
    kind: row.kind as Change['kind'],
    id: row.record_id,
    slug: row.slug,
    op: row.op,
    fields: row.fields,
    actor: {
      kind: row.actor_kind,
      name: byUser ? (row.user_name ?? row.user_nickname) : null,
      ...(viewer.admin
        ? {
            user_id: row.actor_user_id,
            email: row.user_email,
            token_id: row.actor_token_id,
            token_name: row.token_name,
            role: row.actor_role,
          }
        : {}),
    },
    reason: row.reason,
    reverts: row.reverts,
  };
}

export function changeService(
  { db }: Database,
  catalogue: Catalogue,
  removers: Record<HistoryKind, (id: string) => Promise<void>>,
) {
  /** The id of the record `ref` names: a live record by slug or uuid, or a deleted one by uuid. */
  async function recordId(kind: HistoryKind, ref: string): Promise<string> {
    const found = await catalogue[kind].byRef(db, ref);
    if (found) return (found as { id: string }).id;
    const noun = HISTORY_KINDS[kind].noun;
    if (isUuid(ref) && (await repo.hasEntries(db, ref.toLowerCase()))) return ref.toLowerCase();
    throw new NotFound(`${noun} '${ref}' not found${isUuid(ref) ? ' (nor in the change log)' : ''}`);
  }

  return {
    async feed(q: ChangeFeedQuery, viewer: Viewer): Promise<ChangeFeed> {
      const [rows, counter] = await Promise.all([repo.after(db, q.after, q.limit), repo.counter(db)]);
      if (q.after < counter.pruned_through) {
        throw new Gone(
          `changes up to position ${counter.pruned_through} were pruned; read the export, then follow the feed from its current end`,
          { pruned_through: counter.pruned_through },
        );
      }
      const data = rows.map((row) => toChange(row, viewer));
      // Read together, the counter may lag the page by a commit between the two reads.
      const next = rows.at(-1)?.position ?? q.after;
      return { data, next, last: Math.max(counter.last_position, next) };
    },

    async history(kind: HistoryKind, ref: string, q: HistoryQuery, viewer: Viewer): Promise<HistoryPage> {
      const id = await recordId(kind, ref);
      const { rows, total } = await repo.ofRecord(db, id, q.page, q.per_page);
      return { data: rows.map((row) => toChange(row, viewer)), total, page: q.page, per_page: q.per_page };
    },

    async revert(
      kind: HistoryKind,
      ref: string,
      position: number,
      overwrite: boolean,
      viewer: Viewer,
    ): Promise<Change> {
      const { noun, table } = HISTORY_KINDS[kind];
      const id = await recordId(kind, ref);
      const change = await repo.atPosition(db, position);
      if (!change || change.record_id !== id) {
        throw new NotFound(`change ${position} is not in the history of ${noun} '${ref}'`);
      }
      const columns = restorableColumns(table);
      const fields = Object.keys(change.fields).filter((name) => columns.has(name));
      const later = await repo.laterOf(db, id, position);
      const touched = [...new Set(later.flatMap((entry) => Object.keys(entry.fields)))].filter((name) =>
        fields.includes(name),
      );
      if (touched.length > 0 && !overwrite) {
        throw new Conflict(
          `later changes touched the same fields (${touched.join(', ')}); send overwrite: true to revert anyway`,
          { fields: touched, later: later.map((entry) => entry.position) },
        );
      }
      const exists = await catalogue[kind].exists(db, id);
      if (change.op === 'create') {
        if (!viewer.admin)
          throw new Forbidden('reverting a create deletes the record: only administrators may');
        if (!exists) throw new Conflict(`${noun} ${id} is already deleted`);
        await withMoreOfActor({ reverts: position }, () => removers[kind](id));
        return latestOf(id, position, viewer);
      }
      if (change.op === 'update' && !exists) {
        throw new Conflict(`${noun} ${id} was deleted after this change; revert its deletion first`);
      }
      if (change.op === 'delete' && exists) throw new Conflict(`${noun} ${id} exists again`);
      if (fields.length === 0) throw new Conflict(`change ${position} touched nothing a revert can write`);
      const values = JSON.stringify(
        Object.fromEntries(fields.map((name) => [name, change.fields[name]?.old])),
      );
      const list = sql.join(
        fields.map((name) => sql.identifier(name)),
        sql`, `,
      );
      const written = await withMoreOfActor({ reverts: position }, () =>
        transaction(db, async ({ tx }) => {
          try {
            if (change.op === 'update') {
              await tx.execute(sql`update ${table} set (${list}, updated_at) =
                (select ${list}, clock_timestamp() from jsonb_populate_record(null::${table}, ${values}::jsonb))
                where id = ${id}`);
            } else {
              // A savepoint: the slug's unique violation is answered, not left to abort the transaction.
              await tx.transaction((sp) =>
                sp.execute(sql`insert into ${table} (${list})
                  select ${list} from jsonb_populate_record(null::${table}, ${values}::jsonb)`),
              );
            }
          } catch (error) {
            if (sqlState(error) === PG_UNIQUE_VIOLATION) {
              throw new Conflict(
                `another ${noun} took the slug '${change.slug}'; the record cannot be restored`,
              );
            }
            if (sqlState(error) === PG_FOREIGN_KEY_VIOLATION) {
              throw new Conflict(`the record this ${noun} belongs to no longer exists; restore it first`);
            }
            throw error;
          }
          return repo.lastWrittenHere(tx, id);
        }),
      );
      const row = written === undefined ? undefined : await repo.byId(db, written);
      // Nothing differed (the fields already held their old values): the change it would revert.
      return toChange(row ?? change, viewer);
    },
  };

  async function latestOf(id: string, reverted: number, viewer: Viewer): Promise<Change> {
    const { rows } = await repo.ofRecord(db, id, 1, 1);
    const row = rows[0];
    if (!row || row.reverts !== reverted) throw new Conflict('the revert was overtaken by another change');
    return toChange(row, viewer);
  }
}
