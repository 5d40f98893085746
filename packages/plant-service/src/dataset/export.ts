/**
 * Export: every record of the six kinds, in dependency order, by slug, deterministic, so
 * the same data gives the same bytes on any database: records sorted by their identity in byte
 * order (COLLATE "C", whatever the database's collation), keys in schema order, null fields left
 * out, no ids and no created/updated timestamps (`last_checked_at` of a link is data and is kept).
 * Rows are read through a cursor in batches; callers run it in one read-only, repeatable-read
 * transaction so the dump is one consistent snapshot.
 */
import { createHash } from 'node:crypto';
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor, Tx } from '../db/client.js';
import { KIND, KINDS, type Kind } from './kinds.js';

/** Bumped whenever the exported bytes for the same data change (part of the ETag). */
export const EXPORT_FORMAT_VERSION = 1;

export const READ_SNAPSHOT = { isolationLevel: 'repeatable read', accessMode: 'read only' } as const;

export interface ExportBatch {
  kind: Kind;
  records: Record<string, unknown>[];
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The select list entry for one own column; numeric and timestamps become JSON-exact text/numbers. */
function selectColumn(column: PgColumn, name: string): SQL {
  const ref = sql`${sql.identifier('t')}.${sql.identifier(name)}`;
  switch (column.columnType) {
    case 'PgNumeric':
      return sql`${ref}::float8 as ${sql.identifier(name)}`;
    case 'PgTimestamp':
      return sql`to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${sql.identifier(name)}`;
    default:
      return sql`${ref} as ${sql.identifier(name)}`;
  }
}

/** select <own fields>, <referenced slugs> from <table> t left join ... order by <identity> */
function selectKind(kind: Kind): SQL {
  const columns = getTableColumns(kind.table) as Record<string, PgColumn>;
  const refs = new Map(kind.references.map((r, i) => [r.field, { ...r, alias: `r${i}` }]));
  const list: SQL[] = [];
  for (const field of Object.keys(kind.schema.properties)) {
    const ref = refs.get(field);
    if (ref) list.push(sql`${sql.identifier(ref.alias)}.slug as ${sql.identifier(field)}`);
    else list.push(selectColumn(columns[field] as PgColumn, field));
  }
  const joins = [...refs.values()].map(
    (r) =>
      sql`left join ${sql.identifier(getTableName(KIND[r.target].table))} ${sql.identifier(r.alias)}
          on ${sql.identifier(r.alias)}.id = t.${sql.identifier(r.column)}`,
  );
  const order = kind.identity.map((f) => {
    const ref = refs.get(f);
    return ref ? sql`${sql.identifier(ref.alias)}.slug collate "C"` : sql`t.${sql.identifier(f)} collate "C"`;
  });
  return sql`select ${sql.join(list, sql`, `)} from ${sql.identifier(getTableName(kind.table))} t
    ${sql.join(joins, sql` `)} order by ${sql.join(order, sql`, `)}`;
}

function timestampFields(kind: Kind): Set<string> {
  const columns = getTableColumns(kind.table) as Record<string, PgColumn>;
  return new Set(Object.keys(kind.schema.properties).filter((f) => columns[f]?.columnType === 'PgTimestamp'));
}

/** A stored row as an interchange record: schema key order, nulls left out. */
function toRecord(
  kind: Kind,
  timestamps: Set<string>,
  row: Record<string, unknown>,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of Object.keys(kind.schema.properties)) {
    let value = row[field];
    if (value === null || value === undefined) continue;
    // Fractions of a second only when there are any.
    if (timestamps.has(field)) value = String(value).replace(/\.0{6}Z$/, 'Z');
    record[field] = value;
  }
  return record;
}

/** One kind's records in identity order, in batches. Run inside a transaction. */
export async function* exportKind(
  tx: Tx,
  kind: Kind,
  batchSize = 500,
): AsyncGenerator<Record<string, unknown>[]> {
  const timestamps = timestampFields(kind);
  const cursor = sql.identifier(`export_${kind.name}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for ${selectKind(kind)}`);
  for (;;) {
    const rows = rowsOf(await tx.execute(sql`fetch forward ${sql.raw(String(batchSize))} from ${cursor}`));
    if (rows.length > 0) yield rows.map((row) => toRecord(kind, timestamps, row));
    if (rows.length < batchSize) break;
  }
  await tx.execute(sql`close ${cursor}`);
}

/** Every record, kind by kind in dependency order, in batches. Run inside a transaction. */
export async function* exportBatches(tx: Tx, batchSize = 500): AsyncGenerator<ExportBatch> {
  for (const kind of KINDS) {
    for await (const records of exportKind(tx, kind, batchSize)) yield { kind, records };
  }
}

/** One line of the export stream: `{"type":"species","slug":...}`. */
export function exportLine(kind: Kind, record: Record<string, unknown>): string {
  return `${JSON.stringify({ type: kind.name, ...record })}\n`;
}

/**
 * The export's version, for its ETag: a hash of every exported table's row count and newest row
 * version (PostgreSQL's `xmin`, the writing transaction). An insert, update or delete changes one
 * of them; an import that changes nothing writes no row and keeps it. Cheap: no row is read out.
 */
export async function exportVersion(ex: Executor): Promise<string> {
  const parts = KINDS.map(
    (k) =>
      sql`select ${k.name}::text as kind, count(*)::text as n, coalesce(max(xmin::text::bigint), 0)::text as x
          from ${sql.identifier(getTableName(k.table))}`,
  );
  const rows = rowsOf(await ex.execute(sql.join(parts, sql` union all `)));
  const text = rows
    .map((r) => `${r.kind}:${r.n}:${r.x}`)
    .sort()
    .join('|');
  return createHash('sha256').update(`v${EXPORT_FORMAT_VERSION}|${text}`).digest('hex').slice(0, 32);
}
