import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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

/** One page of `table` rows matching `where`, in `order`, with the total count. */
export async function selectPage<T>(
  ex: Executor,
  table: PgTable,
  selection: Record<string, PgColumn>,
  where: SQL | undefined,
  order: SQL[],
  { page, per_page }: PageRequest,
): Promise<Page<T>> {
  const [rows, totals] = await Promise.all([
    ex
      .select(selection)
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(per_page)
      .offset((page - 1) * per_page),
    ex.select({ total: count() }).from(table).where(where),
  ]);
  return { data: rows as T[], total: Number(totals[0]?.total ?? 0), page, per_page };
}
