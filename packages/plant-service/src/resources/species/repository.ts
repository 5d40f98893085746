import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Listing } from '../../db/catalogue-repository.js';
import type { Executor } from '../../db/client.js';
import { filterConditions } from '../../db/list-filters.js';
import { cultivars, families, species } from '../../db/tables.js';
import { zoneInterval } from '../../schema/hardiness.js';
import { type LegalStatusMatch, parseExcludedStatuses } from '../../schema/legal-status-param.js';
import type { SpeciesListQuery } from '../../schema/species.js';
import { SPECIES_LIST_FILTERS, SPECIES_PLANNER_FILTERS, speciesFields } from '../../schema/species-fields.js';
import { matches, rankBy } from '../search/tsquery.js';

/** The list's WHERE clause; the facet counts run over the same one. */
export function speciesFilters(q: SpeciesListQuery, tsquery: string | null): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    // An unknown family slug matches nothing: an empty page, not an error.
    q.family === undefined
      ? undefined
      : sql`${species.family_id} = (select ${families.id} from ${families} where ${families.slug} = ${q.family})`,
    ...filterConditions(species, speciesFields, SPECIES_LIST_FILTERS, q),
    ...filterConditions(species, speciesFields, SPECIES_PLANNER_FILTERS, q),
    q.exclude_legal_status === undefined
      ? undefined
      : withoutLegalStatus(parseExcludedStatuses(q.exclude_legal_status)),
    q.hardiness_zone === undefined ? undefined : hardinessCovers(q.hardiness_zone),
    tsquery === null ? undefined : matches(species.search, tsquery),
  ];
  return and(...conditions);
}

/**
 * Species carrying none of the statuses; a species whose legal status is unknown carries none that
 * is known, and stays.
 */
export function withoutLegalStatus(statuses: readonly LegalStatusMatch[]): SQL {
  const carries = statuses.map(
    (status) => sql`(${species.legal_status}::jsonb) @> ${JSON.stringify([status])}::jsonb`,
  );
  return sql`not coalesce(${sql.join(carries, sql` or `)}, false)`;
}

/**
 * Species hardy in every part of `zone` (`7` needs 7a and 7b, `7a` only 7a); a species without a
 * readable zone never matches. `zone` has passed the query schema's pattern.
 */
export function hardinessCovers(
  zone: string,
  table: { hardiness_min: PgColumn; hardiness_max: PgColumn } = species,
): SQL {
  const interval = zoneInterval(zone);
  if (interval === null) throw new Error(`not a hardiness zone: ${zone}`);
  return sql`${table.hardiness_min} <= ${interval.min} and ${table.hardiness_max} >= ${interval.max}`;
}

export const speciesRepository = {
  /** The list: by scientific name, then id; with a search, by relevance first. */
  listing(q: SpeciesListQuery, tsquery: string | null): Listing {
    const order = [asc(species.name_scientific), asc(species.id)];
    if (tsquery !== null) order.unshift(desc(rankBy(species.search, tsquery)));
    return { where: speciesFilters(q, tsquery), order };
  },
  async countCultivars(ex: Executor, speciesId: string): Promise<number> {
    const [row] = await ex.select({ n: count() }).from(cultivars).where(eq(cultivars.species_id, speciesId));
    return Number(row?.n ?? 0);
  },
  /** Rootstock references are informational; they are cleared, not blocking. */
  async clearRootstockReferences(ex: Executor, speciesId: string): Promise<void> {
    await ex
      .update(cultivars)
      .set({ rootstock_species_id: null })
      .where(eq(cultivars.rootstock_species_id, speciesId));
  },
};
