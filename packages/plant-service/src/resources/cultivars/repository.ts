import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Listing } from '../../db/catalogue-repository.js';
import type { Executor } from '../../db/client.js';
import { cultivarSuppliers, cultivars, species } from '../../db/tables.js';
import type { CultivarListQuery, CultivarSupplier } from '../../schema/cultivars.js';
import { matches, rankBy } from '../search/tsquery.js';

export const cultivarRepository = {
  /** The list: by name, then id; with a search, by relevance first. */
  listing(q: CultivarListQuery, tsquery: string | null): Listing {
    const where: SQL | undefined = and(
      // An unknown species slug matches nothing: an empty page, not an error.
      q.species === undefined
        ? undefined
        : sql`${cultivars.species_id} = (select ${species.id} from ${species} where ${species.slug} = ${q.species})`,
      tsquery === null ? undefined : matches(cultivars.search, tsquery),
    );
    const order = [asc(cultivars.name), asc(cultivars.id)];
    if (tsquery !== null) order.unshift(desc(rankBy(cultivars.search, tsquery)));
    return { where, order };
  },
  async speciesSlug(ex: Executor, speciesId: string): Promise<string | undefined> {
    const rows = await ex
      .select({ slug: species.slug })
      .from(species)
      .where(eq(species.id, speciesId))
      .limit(1);
    return rows[0]?.slug;
  },
};

export const cultivarSupplierRepository = {
  list(ex: Executor, cultivarId: string): Promise<CultivarSupplier[]> {
    return ex
      .select()
      .from(cultivarSuppliers)
      .where(eq(cultivarSuppliers.cultivar_id, cultivarId))
      .orderBy(asc(cultivarSuppliers.created_at), asc(cultivarSuppliers.id));
  },
  async insert(ex: Executor, values: typeof cultivarSuppliers.$inferInsert): Promise<CultivarSupplier> {
    const [row] = await ex.insert(cultivarSuppliers).values(values).returning();
    if (row === undefined) throw new Error('insert returned no row');
    return row;
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
