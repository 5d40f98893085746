import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { cultivars, families, species } from '../../db/tables.js';
import type { SearchResult } from './schemas.js';
import { matches, rankBy } from './tsquery.js';

export async function searchAll(ex: Executor, tsquery: string, limit: number): Promise<SearchResult[]> {
  const result = await ex.execute(sql`
    select * from (
      select 'family' as entity_type, ${families.id} as id, ${families.slug} as slug,
             ${families.name_scientific} as name, ${families.description} as description,
             ${rankBy(families.search, tsquery)} as rank
        from ${families} where ${matches(families.search, tsquery)}
      union all
      select 'species', ${species.id}, ${species.slug}, ${species.name_scientific},
             coalesce(${species.description}, ${species.description_en}), ${rankBy(species.search, tsquery)}
        from ${species} where ${matches(species.search, tsquery)}
      union all
      select 'cultivar', ${cultivars.id}, ${cultivars.slug}, ${cultivars.name},
             coalesce(${cultivars.description}, ${cultivars.description_en}), ${rankBy(cultivars.search, tsquery)}
        from ${cultivars} where ${matches(cultivars.search, tsquery)}
    ) results
    order by rank desc, name, id
    limit ${limit}`);
  // ts_rank is float4: node-postgres returns it as a number, but normalise whatever the driver gives.
  // Both drivers answer { rows }.
  const { rows } = result as unknown as { rows: Record<string, unknown>[] };
  return rows.map((r) => ({ ...(r as SearchResult), rank: Number(r.rank) }));
}
