/**
 * On PostgreSQL, the statements that return what the search index found (the records of group 1
 * alone, and those with the candidates of later groups ranked) settle on one generic plan per
 * connection after the five custom plans PostgreSQL always tries first, however few records they
 * are given. Their arrays of ids are read through scalar subqueries, so their lengths are unknown
 * to every plan: were they visible, a custom plan for one record of each type would look cheaper
 * than the generic plan, and such a search would be planned again every time.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localChangeFeed } from '../../src/db/change-feed.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { cultivars, families, species } from '../../src/db/tables.js';
import { searchAll } from '../../src/resources/search/repository.js';
import { type SearchIndex, searchIndex } from '../../src/resources/search/search-index.js';
import { testDatabase } from '../helpers/database.js';

/** Name stems each found once as a family, a species and a cultivar. */
const STEMS = ['zephyr', 'quillo', 'bromel', 'tarnic', 'wolvex', 'yarrin'];

let base: Database;
let database: Database;
let index: SearchIndex;

beforeAll(async () => {
  base = await testDatabase();
  // One connection, so the prepared statements seen below are all the pool's.
  database = openPostgres({ url: base.url!, poolSize: 1 });
  for (const stem of STEMS) {
    const title = stem[0]!.toUpperCase() + stem.slice(1);
    const [family] = await database.db
      .insert(families)
      .values({ slug: `${stem}-family`, name_scientific: `${title}aceae` })
      .returning({ id: families.id });
    const [one] = await database.db
      .insert(species)
      .values({ slug: `${stem}-minor`, family_id: family!.id, name_scientific: `${title}a minor` })
      .returning({ id: species.id });
    await database.db
      .insert(cultivars)
      .values({ slug: `${stem}-star`, species_id: one!.id, name: `${title} Star` });
    // Enough rows beside them that a record is read through its primary key, as in any catalogue.
    await database.db.execute(sql`insert into species (slug, family_id, name_scientific)
      select ${`${stem}-filler-`} || n, ${family!.id}, 'Filler ' || n from generate_series(1, 1000) n`);
  }
  // Found only in their descriptions (group 3), so the database ranks them.
  await database.db.execute(sql`insert into species (slug, family_id, name_scientific, description)
    select 'lucent-' || n, (select id from families limit 1), 'Lucent ' || n, 'Glimmering leaves'
    from generate_series(1, 30) n`);
  await database.db.execute(sql`analyze`);
  index = searchIndex(database.db, localChangeFeed(), { info: () => {}, warn: () => {} });
  await index.refresh();
});
afterAll(async () => {
  await index.close();
  await database.close();
  await base.close();
});

describe('search statements on PostgreSQL', () => {
  it('are planned generically after five runs, for one record of each type as for many', async () => {
    for (let run = 0; run < 8; run++)
      for (const text of [...STEMS, 'filler', 'glimm'])
        expect((await searchAll(database.db, text, 20, index)).length).toBeGreaterThan(0);
    const { rows } = (await database.db.execute(
      sql`select name, custom_plans::int as custom, generic_plans::int as generic
          from pg_prepared_statements where name like 'search_found_%' or name = 'search_shown'
          order by name`,
    )) as unknown as { rows: { name: string; custom: number; generic: number }[] };
    // Group 1's records alone, whatever their types (the stems, the fillers), in one statement;
    // description matches of species ranked in another.
    expect(rows.map((row) => row.name)).toEqual(['search_found___1', 'search_shown']);
    for (const row of rows) {
      expect(row.custom, row.name).toBeLessThanOrEqual(5);
      expect(row.generic, row.name).toBeGreaterThan(0);
    }
  });
});
