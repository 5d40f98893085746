/**
 * Query helpers shared by the catalogue resources (families, species, cultivars, suppliers):
 * lookup by slug-or-uuid, insert with a unique slug, update, delete. Only parameterised SQL.
 */
import { eq, getTableColumns, getTableName, like, or, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, type PgTable, PgTransaction } from 'drizzle-orm/pg-core';
import { NotFound } from '../errors.js';
import { isUuid } from '../lib/slug.js';
import type { Executor } from './client.js';
import { stillReferenced } from './constraints.js';
import { PG_UNIQUE_VIOLATION, sqlState, violatedConstraint } from './errors.js';

export type CatalogueTable = PgTable & { id: PgColumn; slug: PgColumn };

/**
 * Columns the database derives for its own use (full-text vectors, name text for trigrams,
 * hardiness half-zones, guild score); never part of a response.
 */
const INTERNAL_COLUMNS = new Set([
  'search',
  'names',
  'names_text',
  'hardiness_min',
  'hardiness_max',
  'guild_score',
]);

/** The columns a response carries: everything but the internal, derived ones. */
export function publicColumns(table: PgTable): Record<string, PgColumn> {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  return Object.fromEntries(Object.entries(all).filter(([name]) => !INTERNAL_COLUMNS.has(name)));
}

function refCondition(table: CatalogueTable, ref: string) {
  return isUuid(ref) ? eq(table.id, ref.toLowerCase()) : eq(table.slug, ref);
}

type Lookup = { execute(values: { ref: string }): Promise<unknown[]> };

/**
 * Lookups by slug or uuid are the hottest queries (every GET by ref): outside transactions they
 * run as prepared statements, built once per database and table, so neither drizzle nor
 * PostgreSQL plans them again on every request.
 */
const preparedLookups = new WeakMap<Executor, Map<string, Lookup>>();

function preparedLookup(ex: Executor, table: CatalogueTable, by: 'id' | 'slug'): Lookup {
  let lookups = preparedLookups.get(ex);
  if (!lookups) {
    lookups = new Map();
    preparedLookups.set(ex, lookups);
  }
  const name = `${getTableName(table)}_by_${by}`;
  let lookup = lookups.get(name);
  if (!lookup) {
    lookup = ex
      .select(publicColumns(table))
      .from(table)
      .where(eq(table[by], sql.placeholder('ref')))
      .limit(1)
      .prepare(name);
    lookups.set(name, lookup);
  }
  return lookup;
}

export async function findByRef<T>(ex: Executor, table: CatalogueTable, ref: string): Promise<T | undefined> {
  if (ex instanceof PgTransaction) {
    const rows = await ex.select(publicColumns(table)).from(table).where(refCondition(table, ref)).limit(1);
    return rows[0] as T | undefined;
  }
  const rows = isUuid(ref)
    ? await preparedLookup(ex, table, 'id').execute({ ref: ref.toLowerCase() })
    : await preparedLookup(ex, table, 'slug').execute({ ref });
  return rows[0] as T | undefined;
}

/** Every row, in `order` (for the short, unpaginated lists). */
export async function listAll<T>(ex: Executor, table: PgTable, order: SQL[]): Promise<T[]> {
  const rows = await ex
    .select(publicColumns(table))
    .from(table)
    .orderBy(...order);
  return rows as unknown as T[];
}

/**
 * The first free slug among `base`, `base-2`, `base-3`, ... Uniqueness is finally guaranteed by
 * the unique index; insertWithSlug retries when a concurrent writer took the same one.
 */
async function freeSlug(ex: Executor, table: CatalogueTable, base: string): Promise<string> {
  const rows = await ex
    .select({ slug: table.slug })
    .from(table)
    .where(or(eq(table.slug, base), like(table.slug, `${base.replace(/[\\%_]/g, '\\$&')}-%`)));
  const taken = new Set(rows.map((r) => r.slug as string));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export async function insertWithSlug<T>(
  ex: Executor,
  table: CatalogueTable,
  base: string,
  values: Record<string, unknown>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const slug = await freeSlug(ex, table, base || 'unnamed');
    try {
      // A savepoint, so a lost race does not abort the surrounding transaction.
      const rows = await ex.transaction((sp) =>
        sp
          .insert(table)
          .values({ ...values, slug })
          .returning(publicColumns(table)),
      );
      return rows[0] as T;
    } catch (error) {
      const slugRace =
        sqlState(error) === PG_UNIQUE_VIOLATION && violatedConstraint(error)?.endsWith('slug_unique');
      // After a few lost races the unique violation goes up, where it becomes a 409.
      if (!slugRace || attempt >= 4) throw error;
    }
  }
}

/**
 * Updates the row and returns it. No row changed means another writer deleted it since it was
 * read: a NotFound, thrown inside the caller's transaction, never an empty answer.
 */
export async function updateById<T>(
  ex: Executor,
  table: CatalogueTable,
  id: string,
  values: Record<string, unknown>,
): Promise<T> {
  const rows = await ex
    .update(table)
    .set({ ...values, updated_at: sql`clock_timestamp()` })
    .where(eq(table.id, id))
    .returning(publicColumns(table));
  if (rows.length === 0) throw gone(table, id);
  return rows[0] as T;
}

/**
 * Deletes the row; like updateById, a row already gone is a NotFound. A row that others still
 * point at (a child inserted after the caller's own check) is a 409.
 */
export async function deleteById(ex: Executor, table: CatalogueTable, id: string): Promise<void> {
  let rows: unknown[];
  try {
    rows = await ex.delete(table).where(eq(table.id, id)).returning({ id: table.id });
  } catch (error) {
    throw stillReferenced(error) ?? error;
  }
  if (rows.length === 0) throw gone(table, id);
}

function gone(table: CatalogueTable, id: string): NotFound {
  return new NotFound(`${getTableName(table)} ${id} not found (deleted meanwhile)`);
}
