/**
 * The one repository of the catalogue tables (families, species, cultivars, suppliers): lookup by
 * slug or uuid, pages, insert with a unique slug, update and remove. Resource repositories add
 * only their own queries (filters, counts of children). Only parameterised SQL; constraint
 * violations become catalogue errors in constraints.ts.
 */

import type DataLoader from 'dataloader';
import { count, eq, getTableColumns, getTableName, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgDialect, type PgTable, PgTransaction } from 'drizzle-orm/pg-core';
import { NotFound } from '../errors.js';
import type { JsonText } from '../lib/json-text.js';
import { isUuid } from '../lib/slug.js';
import type { Db, Executor } from './client.js';
import { stillReferenced } from './constraints.js';
import { PG_UNIQUE_VIOLATION, sqlState, violatedConstraint } from './errors.js';
import { perTurn } from './per-turn.js';
import type { Transaction } from './transaction.js';

export type CatalogueTable = PgTable & { id: PgColumn; slug: PgColumn };

export interface PageRequest {
  page: number;
  per_page: number;
}

/** Which rows a list holds, and in what order. */
export interface Listing {
  where: SQL | undefined;
  order: SQL[];
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
}

/**
 * Columns the database derives for its own use (full-text vectors, name text for trigrams,
 * hardiness half-zones, guild score); never part of a response.
 */
const INTERNAL_COLUMNS = [
  'search',
  'names',
  'names_text',
  'hardiness_min',
  'hardiness_max',
  'guild_score',
] as const;

/** A row as a response carries it: every column but the internal, derived ones. */
export type PublicRow<T extends PgTable> = Omit<T['$inferSelect'], (typeof INTERNAL_COLUMNS)[number]>;

/** The columns a response carries: everything but the internal, derived ones. */
export function publicColumns(table: PgTable): Record<string, PgColumn> {
  const internal = new Set<string>(INTERNAL_COLUMNS);
  return Object.fromEntries(Object.entries(getTableColumns(table)).filter(([name]) => !internal.has(name)));
}

/**
 * A row's public columns as JSON text, written by the database: what list pages and reads by ref
 * send. The columns are the table's declared public ones, so no second list of them exists to
 * keep in step. Reading rows of some 90 columns into objects and serialising them again cost the
 * service several times the CPU. The keys and their order are the record's; a timestamp is written
 * as JSON.stringify writes a Date (UTC, milliseconds, `Z`), so the text is the one the records' own
 * serialisation would give.
 */
export function rowJson<R>(columns: Record<string, PgColumn>): SQL<JsonText<R>> {
  const parts = Object.entries(columns).map(([key, column]) =>
    column.getSQLType().startsWith('timestamp')
      ? sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${sql.identifier(key)}`
      : sql`${column} as ${sql.identifier(key)}`,
  );
  const expression = sql`(select row_to_json(r) from (select ${sql.join(parts, sql`, `)}) r)::text`;
  // Rendered to text once: building a template of ~90 parts on every request cost more CPU than
  // the rest of a list request's SQL. It holds column names only, no values.
  const rendered = new PgDialect().sqlToQuery(expression);
  if (rendered.params.length > 0) throw new Error('rowJson: the expression must not carry values');
  return sql<JsonText<R>>`${sql.raw(rendered.sql)}`;
}

export interface CatalogueRepository<R> {
  /** The record by slug or uuid. */
  byRef(ex: Executor, ref: string): Promise<R | undefined>;
  /** The record by slug or uuid; NotFound naming the noun and the ref when there is none. */
  get(ex: Executor, ref: string): Promise<R>;
  /** The record by slug or uuid as its kept JSON text (what `get` answers, written); NotFound likewise. */
  getText(db: Db, ref: string): Promise<JsonText<R>>;
  exists(ex: Executor, id: string): Promise<boolean>;
  /**
   * One page of the listed rows, with the total count. The page's ids are found
   * first (the list indexes answer filters, order and skipped rows without reading whole rows), and
   * only the page's own rows are read in full, each as JSON text (see rowJson).
   */
  page(ex: Executor, listing: Listing, request: PageRequest): Promise<Page<JsonText<R>>>;
  /** Every row as JSON text, in `order` (for the short, unpaginated lists). */
  all(ex: Executor, order: SQL[]): Promise<JsonText<R>[]>;
  /** Inserts the row with the first free slug built from `slugBase`. */
  insert(ex: Executor, slugBase: string, values: Record<string, unknown>): Promise<R>;
  /**
   * Updates the row and returns it. No row changed means another writer deleted it since it was
   * read: a NotFound, thrown inside the caller's transaction, never an empty answer.
   */
  update(ex: Executor, id: string, values: Record<string, unknown>): Promise<R>;
  /**
   * Runs the remove hooks, then deletes the row; a row already gone is a NotFound, a row that
   * others still point at (a child inserted after the caller's own check) a 409.
   */
  remove(t: Transaction, id: string): Promise<void>;
  /** Work that goes with every removal of a row, in its transaction (e.g. the row's images). */
  onRemove(hook: (t: Transaction, id: string) => Promise<void>): void;
}

type Lookup = { execute(values: Record<string, unknown>): Promise<unknown[]> };
type Column = 'id' | 'slug';

/** The most refs one batched lookup sends (a bound on the statement's array parameter). */
const MAX_BATCH = 100;

export function catalogueRepository<T extends CatalogueTable>(
  of: T,
  noun: string,
): CatalogueRepository<PublicRow<T>> {
  type R = PublicRow<T>;
  const table: CatalogueTable = of;
  const columns = publicColumns(table);
  const json = rowJson<R>(columns);
  // Drizzle cannot follow a column selection over a generic table: the rows of `columns` are the
  // public rows of T, by the selection's construction.
  const typed = (rows: unknown[]) => rows as R[];
  const removeHooks: ((t: Transaction, id: string) => Promise<void>)[] = [];
  const gone = (id: string) => new NotFound(`${getTableName(table)} ${id} not found (deleted meanwhile)`);

  /**
   * Lookups by slug or uuid are the hottest queries (every GET by ref). Outside transactions, the
   * lookups that requests make in the same turn of the event loop go to the database together, as
   * one statement for all their refs: under load each round trip (a socket write and wake-up on
   * both sides, and the database's per-statement work) is shared by every request in the turn,
   * and alone a lookup waits no longer than the end of the current turn. Both statements are
   * prepared once per database, so neither drizzle nor PostgreSQL plans them on every request.
   * Nothing is cached: every lookup reads rows committed before it was sent.
   */
  type Loaders = Record<Column, DataLoader<string, R | undefined>> & {
    text: Record<Column, DataLoader<string, JsonText<R> | undefined>>;
  };
  const loaders = new WeakMap<Executor, Loaders>();
  function loadersOf(ex: Executor): Loaders {
    let found = loaders.get(ex);
    if (!found) {
      const make = <V>(
        column: Column,
        selection: Record<string, unknown>,
        name: string,
        value: (row: never) => V,
      ) => {
        const one: Lookup = ex
          .select(selection as typeof columns)
          .from(table)
          .where(eq(table[column], sql.placeholder('ref')))
          .limit(1)
          .prepare(name);
        const many: Lookup = ex
          .select(selection as typeof columns)
          .from(table)
          .where(
            sql`${table[column]} = any(${sql.placeholder('refs')}::${column === 'id' ? sql`uuid[]` : sql`text[]`})`,
          )
          .prepare(`${name}_batch`);
        const of = (row: unknown) => (row === undefined ? undefined : value(row as never));
        return perTurn<V>(async (refs) => {
          if (refs.length === 1) return [of((await one.execute({ ref: refs[0] }))[0])];
          const rows = (await many.execute({ refs: [...new Set(refs)] })) as Record<string, unknown>[];
          const byRef = new Map(rows.map((row) => [row[column] as string, row]));
          return refs.map((ref) => of(byRef.get(ref)));
        }, MAX_BATCH);
      };
      const rows = (column: Column) =>
        make(column, columns, `${getTableName(table)}_by_${column}`, (row: R) => row);
      // A record's response as its kept text: no row of 90 columns made into an object and
      // serialised again, which was most of the service's work for a read by ref.
      const texts = (column: Column) =>
        make(
          column,
          { [column]: table[column], json },
          `${getTableName(table)}_text_by_${column}`,
          (row: { json: JsonText<R> }) => row.json,
        );
      found = { id: rows('id'), slug: rows('slug'), text: { id: texts('id'), slug: texts('slug') } };
      loaders.set(ex, found);
    }
    return found;
  }
  const loader = (ex: Executor, column: Column) => loadersOf(ex)[column];

  /**
   * The first free slug among `base`, `base-2`, `base-3`, ... Uniqueness is finally guaranteed by
   * the unique index; insert retries when a concurrent writer took the same one.
   */
  async function freeSlug(ex: Executor, base: string): Promise<string> {
    const rows = await ex
      .select({ slug: table.slug })
      .from(table)
      .where(or(eq(table.slug, base), like(table.slug, `${base.replace(/[\\%_]/g, '\\$&')}-%`)));
    const taken = new Set(rows.map((r) => r.slug as string));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  const repository: CatalogueRepository<R> = {
    async byRef(ex, ref) {
      const uuid = isUuid(ref);
      if (!(ex instanceof PgTransaction)) {
        return uuid ? loader(ex, 'id').load(ref.toLowerCase()) : loader(ex, 'slug').load(ref);
      }
      const rows = await ex
        .select(columns)
        .from(table)
        .where(uuid ? eq(table.id, ref.toLowerCase()) : eq(table.slug, ref))
        .limit(1);
      return typed(rows)[0];
    },

    async get(ex, ref) {
      const found = await repository.byRef(ex, ref);
      if (found === undefined) throw new NotFound(`${noun} '${ref}' not found`);
      return found;
    },

    async getText(db, ref) {
      const { text } = loadersOf(db);
      const found = await (isUuid(ref) ? text.id.load(ref.toLowerCase()) : text.slug.load(ref));
      if (found === undefined) throw new NotFound(`${noun} '${ref}' not found`);
      return found;
    },

    async exists(ex, id) {
      const rows = await ex.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1);
      return rows.length > 0;
    },

    async page(ex, { where, order }, { page, per_page }) {
      const ids = ex
        .select({ id: table.id })
        .from(table)
        .where(where)
        .orderBy(...order)
        .limit(per_page)
        .offset((page - 1) * per_page);
      // The total rides along in the page's own statement (an uncorrelated subquery, run once):
      // one round trip and one pooled connection per page instead of two.
      const counted = sql<string>`(select count(*) from ${table} where ${where ?? sql`true`})`;
      const rows = await ex
        .select({ json, total: counted })
        .from(table)
        .where(inArray(table.id, ids))
        .orderBy(...order);
      // An empty first page means nothing matches; an empty later page says nothing of the total.
      const total =
        rows[0] !== undefined
          ? Number(rows[0].total)
          : page === 1
            ? 0
            : Number((await ex.select({ total: count() }).from(table).where(where))[0]?.total ?? 0);
      return { data: rows.map((row) => row.json), total, page, per_page };
    },

    async all(ex, order) {
      const rows = await ex
        .select({ json })
        .from(table)
        .orderBy(...order);
      return rows.map((row) => row.json);
    },

    async insert(ex, slugBase, values) {
      for (let attempt = 0; ; attempt++) {
        const slug = await freeSlug(ex, slugBase || 'unnamed');
        try {
          // A savepoint, so a lost race does not abort the surrounding transaction.
          const rows = await ex.transaction((sp) =>
            sp
              .insert(table)
              .values({ ...values, slug })
              .returning(columns),
          );
          const [row] = typed(rows);
          if (row === undefined) throw new Error('insert returned no row');
          return row;
        } catch (error) {
          const slugRace =
            sqlState(error) === PG_UNIQUE_VIOLATION && violatedConstraint(error)?.endsWith('slug_unique');
          // After a few lost races the unique violation goes up, where it becomes a 409.
          if (!slugRace || attempt >= 4) throw error;
        }
      }
    },

    async update(ex, id, values) {
      const rows = await ex
        .update(table)
        .set({ ...values, updated_at: sql`clock_timestamp()` })
        .where(eq(table.id, id))
        .returning(columns);
      const [row] = typed(rows);
      if (row === undefined) throw gone(id);
      return row;
    },

    async remove(t, id) {
      for (const hook of removeHooks) await hook(t, id);
      let rows: unknown[];
      try {
        rows = await t.tx.delete(table).where(eq(table.id, id)).returning({ id: table.id });
      } catch (error) {
        throw stillReferenced(error) ?? error;
      }
      if (rows.length === 0) throw gone(id);
    },

    onRemove(hook) {
      removeHooks.push(hook);
    },
  };
  return repository;
}
