import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Page, selectPage } from '../../db/paging.js';
import { deleteById, findByRef, insertWithSlug, publicColumns, updateById } from '../../db/records.js';
import { cultivarSuppliers, cultivars, species } from '../../db/tables.js';
import type { Cultivar, CultivarListQuery, CultivarSupplier } from '../../schema/cultivars.js';
import { matches, rankBy } from '../search/tsquery.js';

export const cultivarRepository = {
  list(ex: Executor, q: CultivarListQuery, tsquery: string | null): Promise<Page<Cultivar>> {
    const where: SQL | undefined = and(
      // An unknown species slug matches nothing: an empty page, not an error.
      q.species === undefined
        ? undefined
        : sql`${cultivars.species_id} = (select ${species.id} from ${species} where ${species.slug} = ${q.species})`,
      tsquery === null ? undefined : matches(cultivars.search, tsquery),
    );
    const order = [asc(cultivars.name), asc(cultivars.id)];
    if (tsquery !== null) order.unshift(desc(rankBy(cultivars.search, tsquery)));
    return selectPage<Cultivar>(ex, cultivars, publicColumns(cultivars), where, order, q);
  },
  findByRef: (ex: Executor, ref: string) => findByRef<Cultivar>(ex, cultivars, ref),
  insert: (ex: Executor, slugBase: string, values: Record<string, unknown>) =>
    insertWithSlug<Cultivar>(ex, cultivars, slugBase, values),
  update: (ex: Executor, id: string, values: Record<string, unknown>) =>
    updateById<Cultivar>(ex, cultivars, id, values),
  delete: (ex: Executor, id: string) => deleteById(ex, cultivars, id),
  async speciesSlug(ex: Executor, speciesId: string): Promise<string | undefined> {
    const rows = await ex
      .select({ slug: species.slug })
      .from(species)
      .where(eq(species.id, speciesId))
      .limit(1);
    return rows[0]?.slug;
  },
};

const linkColumns = publicColumns(cultivarSuppliers);

export const cultivarSupplierRepository = {
  list(ex: Executor, cultivarId: string): Promise<CultivarSupplier[]> {
    return ex
      .select(linkColumns)
      .from(cultivarSuppliers)
      .where(eq(cultivarSuppliers.cultivar_id, cultivarId))
      .orderBy(asc(cultivarSuppliers.created_at), asc(cultivarSuppliers.id)) as unknown as Promise<
      CultivarSupplier[]
    >;
  },
  async insert(ex: Executor, values: Record<string, unknown>): Promise<CultivarSupplier> {
    const rows = await ex
      .insert(cultivarSuppliers)
      .values(values as typeof cultivarSuppliers.$inferInsert)
      .returning(linkColumns);
    return rows[0] as CultivarSupplier;
  },

  async delete(ex: Executor, cultivarId: string, supplierId: string): Promise<boolean> {
    const rows = await ex
      .delete(cultivarSuppliers)
      .where(
        and(eq(cultivarSuppliers.cultivar_id, cultivarId), eq(cultivarSuppliers.supplier_id, supplierId)),
      )
      .returning({ id: cultivarSuppliers.id });
    return rows.length > 0;
  },
};
