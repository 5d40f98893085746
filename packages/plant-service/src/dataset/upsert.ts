/**
 * Bulk upsert of checked records, many rows per statement. A record replaces the stored one: a
 * field it leaves out is null (or the column default, e.g. `is_organic` false). Rows whose values
 * do not change are not written, so their `updated_at` and the export's ETag stay as they are.
 *
 * Statements take a batch as their only parameter, a JSON array that PostgreSQL turns into rows
 * (json_to_recordset): building a statement with a parameter per value costs more than running
 * it, and would cap a batch at PostgreSQL's 65,535 parameters. References are
 * resolved by slug inside the statement. The statement text is built from the table declaration
 * (identifiers only); every value travels as the parameter.
 */
import { getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client.js';
import { catalogueTable, KIND, type Kind, type KindName, ownFields } from './kinds.js';

export interface KindCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

type Row = Record<string, unknown>;

/** Records per statement: big enough that round trips do not matter, small enough to keep memory flat. */
export const ROWS_PER_STATEMENT = 1_000;

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A quoted identifier; names come from the table declarations, never from input. */
const id = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface Statement {
  /** Text before and after the JSON parameter. */
  head: string;
  tail: string;
}

interface Statements {
  /** Updates the stored rows the batch changes; returns one row per updated record. */
  update: Statement;
  /** Inserts the batch's records that are not stored yet; returns one row per inserted record. */
  insert: Statement;
  /** Own fields whose column is NOT NULL with a default, and that default. */
  defaults: [string, unknown][];
  /**
   * Own fields kept as json text, with their column: written as the column writes them (its
   * canonical text), since json_to_recordset keeps each value's text as the batch gives it.
   */
  json: [string, PgColumn][];
}

const statements = new Map<KindName, Statements>();

/**
 * The batch as rows: `(select r.own..., (select id from target where slug = r.ref) as ref_id...
 * from json_to_recordset($1::json) as r(own type..., ref text...)) s`. Then
 *   update t set <written> = s.<written> from <rows> where <same identity> and <values differ>
 *   insert into t (<written>) select <written> from <rows> where not exists <same identity>
 * Two statements instead of INSERT ... ON CONFLICT: PostgreSQL computes a proposed row in full
 * (with the generated full-text column) before it finds the conflict, so an upsert of unchanged
 * records would cost as much as inserting them.
 */
function statementsFor(kind: Kind): Statements {
  const cached = statements.get(kind.name);
  if (cached) return cached;
  const table = id(getTableName(kind.table));
  const columns = getTableColumns(kind.table) as Record<string, PgColumn>;
  const own = ownFields(kind);
  const column = (name: string) => {
    const c = columns[name];
    if (!c) throw new Error(`${kind.name}: no column ${name}`);
    return c;
  };
  const written = [...own, ...kind.references.map((r) => r.column)];
  const selected = [
    ...own.map((f) => `r.${id(f)}`),
    ...kind.references.map(
      (r) =>
        `(select id from ${id(getTableName(KIND[r.target].table))} where slug = r.${id(r.field)}) as ${id(r.column)}`,
    ),
  ];
  const recordset = [
    ...own.map((f) => `${id(f)} ${column(f).getSQLType()}`),
    ...kind.references.map((r) => `${id(r.field)} text`),
  ];
  const rowsHead = `(select ${selected.join(', ')} from json_to_recordset(`;
  const rowsTail = `::json) as r(${recordset.join(', ')})) s`;

  const identity = kind.identity.map((f) => kind.references.find((r) => r.field === f)?.column ?? f);
  const sameIdentity = (t: string) => {
    if (!kind.unordered) return identity.map((c) => `${t}.${id(c)} = s.${id(c)}`).join(' and ');
    const [a, b] = identity.map(id);
    return (
      `least(${t}.${a}, ${t}.${b}) = least(s.${a}, s.${b}) and ` +
      `greatest(${t}.${a}, ${t}.${b}) = greatest(s.${a}, s.${b})`
    );
  };
  // json has no equality operator: its canonical text is compared.
  const isJson = (c: string) => columns[c]?.getSQLType() === 'json';
  const list = (alias: string) => written.map((c) => `${alias}.${id(c)}`).join(', ');
  const compared = (alias: string) =>
    written.map((c) => `${alias}.${id(c)}${isJson(c) ? '::text' : ''}`).join(', ');
  const set = written.map((c) => `${id(c)} = s.${id(c)}`);
  if ('updated_at' in columns) set.push(`${id('updated_at')} = clock_timestamp()`);

  const built: Statements = {
    update: {
      head: `update ${table} t set ${set.join(', ')} from ${rowsHead}`,
      tail: `${rowsTail} where ${sameIdentity('t')} and (${compared('t')}) is distinct from (${compared('s')}) returning 1`,
    },
    insert: {
      head: `insert into ${table} (${written.map(id).join(', ')}) select ${list('s')} from ${rowsHead}`,
      tail: `${rowsTail} where not exists (select 1 from ${table} t where ${sameIdentity('t')}) returning 1`,
    },
    defaults: own
      .map((f) => [f, column(f)] as const)
      .filter(([, c]) => c.notNull && c.hasDefault && c.default !== undefined)
      .map(([f, c]) => [f, c.default]),
    json: own.filter(isJson).map((f) => [f, column(f)]),
  };
  statements.set(kind.name, built);
  return built;
}

async function run(tx: Tx, { head, tail }: Statement, json: string): Promise<number> {
  const result = await tx.execute(sql`${sql.raw(head)}${json}${sql.raw(tail)}`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

export async function upsertKind(tx: Tx, kind: Kind, records: readonly Row[]): Promise<KindCounts> {
  const counts: KindCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const { update, insert, defaults, json: jsonFields } = statementsFor(kind);
  const prepared = (r: Row) => withJson(withDefaults(r, defaults), jsonFields);
  for (const batch of batches(records, ROWS_PER_STATEMENT)) {
    const json = JSON.stringify(
      defaults.length === 0 && jsonFields.length === 0 ? batch : batch.map(prepared),
    );
    // Update first: the rows inserted next must not be compared with themselves.
    const updated = await run(tx, update, json);
    const inserted = await run(tx, insert, json);
    counts.updated += updated;
    counts.inserted += inserted;
    counts.unchanged += batch.length - updated - inserted;
  }
  return counts;
}

function withJson(record: Row, fields: [string, PgColumn][]): Row {
  if (fields.length === 0) return record;
  const row = { ...record };
  for (const [field, column] of fields) {
    const value = row[field];
    if (value !== undefined && value !== null)
      row[field] = JSON.parse(column.mapToDriverValue(value) as string);
  }
  return row;
}

function withDefaults(record: Row, defaults: [string, unknown][]): Row {
  if (defaults.length === 0) return record;
  const row = { ...record };
  for (const [field, value] of defaults)
    if (row[field] === undefined || row[field] === null) row[field] = value;
  return row;
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
