import { asc, count, desc, eq } from 'drizzle-orm';
import type { Listing } from '../../db/catalogue-repository.js';
import type { Executor } from '../../db/client.js';
import { families, species } from '../../db/tables.js';
import { matches, rankBy } from '../search/tsquery.js';

export const familyRepository = {
  /** The list: by scientific name, then id; with a search, by relevance first. */
  listing(tsquery: string | null): Listing {
    const order = [asc(families.name_scientific), asc(families.id)];
    if (tsquery === null) return { where: undefined, order };
    return {
      where: matches(families.search, tsquery),
      order: [desc(rankBy(families.search, tsquery)), ...order],
    };
  },
  async countSpecies(ex: Executor, familyId: string): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(species).where(eq(species.family_id, familyId));
    return Number(row?.n ?? 0);
  },
};
