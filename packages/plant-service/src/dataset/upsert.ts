/**
 * Bulk upsert of checked records, many rows per statement. A record replaces the stored one: a
 * field it leaves out is null (or the column default, e.g. `is_organic` false). Rows whose values
 * do not change are not written, so their `updated_at` and the export's ETag stay as they are.
 * References are resolved by slug inside the statement. Only parameterised SQL.
 */
import { getTableColumns, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client.js';
import { catalogueTable, KIND, type Kind, type KindName, ownFields } from './kinds.js';

export interface KindCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

type Row = Record<string, unknown>;

/** PostgreSQL takes at most 65,535 parameters per statement; stay well below. */
const MAX_PARAMETERS = 30_000;
const MAX_ROWS = 1_000;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const bySlug = (target: KindName, slug: unknown): SQL => {
  const table = catalogueTable(KIND[target]);
  return sql`(select ${table.id} from ${table} where ${table.slug} = ${slug})`;
};

/** The columns an upsert writes: the record's own fields, then the uuid of each reference. */
function writtenColumns(kind: Kind): string[] {
  return [...ownFields(kind), ...kind.references.map((r) => r.column)];
}

function tally(returned: { inserted: boolean }[], total: number, counts: KindCounts): void {
  const inserted = returned.filter((r) => r.inserted).length;
  counts.inserted += inserted;
  counts.updated += returned.length - inserted;
  counts.unchanged += total - returned.length;
}

/** `(t.a, t.b) is distinct from (excluded.a, excluded.b)`: the row would change. */
function changes(table: string, columns: string[]): SQL {
  const side = (alias: string) =>
    sql.join(
      columns.map((c) => sql`${sql.identifier(alias)}.${sql.identifier(c)}`),
      sql`, `,
    );
  return sql`(${side(table)}) is distinct from (${side('excluded')})`;
}

export async function upsertKind(tx: Tx, kind: Kind, records: readonly Row[]): Promise<KindCounts> {
  const counts: KindCounts = { inserted: 0, updated: 0, unchanged: 0 };
  if (records.length === 0) return counts;
  const columns = writtenColumns(kind);
  const size = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  for (const batch of batches(records, size)) {
    const returned = kind.unordered ? await upsertPairs(tx, kind, batch) : await upsertRows(tx, kind, batch);
    tally(returned, batch.length, counts);
  }
  return counts;
}

/** Catalogue records (conflict on slug) and supplier links (conflict on cultivar + supplier). */
async function upsertRows(tx: Tx, kind: Kind, batch: Row[]): Promise<{ inserted: boolean }[]> {
  const own = ownFields(kind);
  const table = kind.table;
  const tableColumns = getTableColumns(table) as Record<string, PgColumn>;
  const timestamps = new Set(own.filter((f) => tableColumns[f]?.columnType === 'PgTimestamp'));
  const rows = batch.map((record) => {
    // undefined becomes the column default (null, or false for the non-null flags).
    const row: Row = {};
    for (const field of own) {
      const value = record[field];
      // Timestamps arrive as ISO text (checked as date-time); drizzle maps Dates.
      row[field] = timestamps.has(field) && typeof value === 'string' ? new Date(value) : value;
    }
    for (const r of kind.references) {
      const slug = record[r.field];
      row[r.column] = slug === undefined || slug === null ? null : bySlug(r.target, slug);
    }
    return row;
  });
  const columns = writtenColumns(kind);
  const set: Record<string, SQL> = Object.fromEntries(
    columns.map((c) => [c, sql`excluded.${sql.identifier(c)}`]),
  );
  if ('updated_at' in tableColumns) set.updated_at = sql`clock_timestamp()`;
  const target = kind.identity.map((f) => {
    const column = kind.references.find((r) => r.field === f)?.column ?? f;
    return tableColumns[column] as PgColumn;
  });
  return tx
    .insert(table)
    .values(rows as never)
    .onConflictDoUpdate({ target, set, setWhere: changes(getTableName(table), columns) })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
}

/**
 * Companion relations: one per unordered pair, so the conflict target is the pair index
 * (least, greatest), which drizzle's builder cannot name. The stored order follows the input.
 */
async function upsertPairs(tx: Tx, kind: Kind, batch: Row[]): Promise<{ inserted: boolean }[]> {
  const own = ownFields(kind);
  const [a, b] = kind.references;
  if (!a || !b) throw new Error(`${kind.name}: a pair needs two references`);
  const columns = [a.column, b.column, ...own];
  const values = batch.map(
    (record) =>
      sql`(${sql.join(
        [
          bySlug(a.target, record[a.field]),
          bySlug(b.target, record[b.field]),
          ...own.map((f) => sql`${record[f] ?? null}`),
        ],
        sql`, `,
      )})`,
  );
  const table = getTableName(kind.table);
  const names = sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  );
  const result = await tx.execute(sql`
    insert into ${sql.identifier(table)} (${names}) values ${sql.join(values, sql`, `)}
    on conflict (least(${sql.identifier(a.column)}, ${sql.identifier(b.column)}),
                 greatest(${sql.identifier(a.column)}, ${sql.identifier(b.column)}))
    do update set ${sql.join(
      columns.map((c) => sql`${sql.identifier(c)} = excluded.${sql.identifier(c)}`),
      sql`, `,
    )}
    where ${changes(table, columns)}
    returning (xmax = 0) as inserted`);
  return (result as unknown as { rows: { inserted: boolean }[] }).rows;
}

/** Which of the slugs exist in the kind's table. */
export async function existingSlugs(tx: Tx, kind: Kind, slugs: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const table = catalogueTable(kind);
  for (const chunk of batches(slugs, 5_000)) {
    const rows = await tx.select({ slug: table.slug }).from(table).where(inArray(table.slug, chunk));
    for (const row of rows) found.add(row.slug as string);
  }
  return found;
}
