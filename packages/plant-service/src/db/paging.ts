import { count, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from './change-feed.js';
import type { Executor } from './client.js';

export interface PageRequest {
  page: number;
  per_page: number;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
}

/** Filter sets whose totals are remembered per database. */
const MAX_SHARED_COUNTS = 10_000;

interface SharedCounts {
  feed: ChangeFeed;
  totals: LRUCache<string, { version: number; total: number }>;
}

const sharedCounts = new WeakMap<Executor, SharedCounts>();

/**
 * Shares list totals across the pages of one filter set (and across requests): an exact count is
 * remembered together with the data version it was taken at, and used only while no write has
 * moved the version on and the change feed is live. Transactions always count afresh.
 */
export function shareCounts(db: Executor, feed: ChangeFeed): void {
  sharedCounts.set(db, { feed, totals: new LRUCache({ max: MAX_SHARED_COUNTS }) });
}

async function total(ex: Executor, table: PgTable, where: SQL | undefined): Promise<number> {
  const query = ex.select({ total: count() }).from(table).where(where);
  const shared = sharedCounts.get(ex);
  if (!shared?.feed.live) return Number((await query)[0]?.total ?? 0);
  // The version before counting: a write committed meanwhile makes the entry stale at once.
  const version = shared.feed.version;
  const { sql, params } = query.toSQL();
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const known = shared.totals.get(key);
  if (known && known.version === version) return known.total;
  const n = Number((await query)[0]?.total ?? 0);
  shared.totals.set(key, { version, total: n });
  return n;
}

/**
 * One page of `table` rows matching `where`, in `order`, with the total count. The page's ids
 * are found first (the list indexes answer filters, order and skipped rows without reading
 * whole rows), and only the page's own rows are read in full.
 */
export async function selectPage<T>(
  ex: Executor,
  table: PgTable & { id: PgColumn },
  selection: Record<string, PgColumn>,
  where: SQL | undefined,
  order: SQL[],
  { page, per_page }: PageRequest,
): Promise<Page<T>> {
  const ids = ex
    .select({ id: table.id })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(per_page)
    .offset((page - 1) * per_page);
  const [rows, n] = await Promise.all([
    ex
      .select(selection)
      .from(table)
      .where(inArray(table.id, ids))
      .orderBy(...order),
    total(ex, table, where),
  ]);
  return { data: rows as T[], total: n, page, per_page };
}
