import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Page, selectPage } from '../../db/paging.js';
import { deleteById, findByRef, insertWithSlug, publicColumns, updateById } from '../../db/records.js';
import { families, species } from '../../db/tables.js';
import type { Family, FamilyListQuery } from '../../schema/families.js';
import { matches, rankBy } from '../search/tsquery.js';

export const familyRepository = {
  async list(ex: Executor, q: FamilyListQuery, tsquery: string | null): Promise<Page<Family>> {
    const where: SQL | undefined = tsquery === null ? undefined : and(matches(families.search, tsquery));
    const order = [asc(families.name_scientific), asc(families.id)];
    if (tsquery !== null) order.unshift(desc(rankBy(families.search, tsquery)));
    return selectPage<Family>(ex, families, publicColumns(families), where, order, q);
  },
  findByRef: (ex: Executor, ref: string) => findByRef<Family>(ex, families, ref),
  insert: (ex: Executor, slugBase: string, values: Record<string, unknown>) =>
    insertWithSlug<Family>(ex, families, slugBase, values),
  update: (ex: Executor, id: string, values: Record<string, unknown>) =>
    updateById<Family>(ex, families, id, values),
  delete: (ex: Executor, id: string) => deleteById(ex, families, id),
  async countSpecies(ex: Executor, familyId: string): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(species).where(eq(species.family_id, familyId));
    return Number(row?.n ?? 0);
  },
};
