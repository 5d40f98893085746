import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { refreshStaleStatistics } from '../../src/db/statistics.js';
import { testDatabase } from '../helpers/database.js';

let database: Database;

beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

const reltuples = async (table: string) => {
  const result = await database.db.execute(
    sql`select reltuples::float8 as n from pg_class where oid = ${table}::regclass`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
};

/** Row counts reach pg_stat lazily (about a second later); wait until the inserts show. */
async function insertsVisible(table: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const result = await database.db.execute(
      sql`select coalesce(sum(n_tup_ins), 0)::int as n from pg_stat_user_tables where relname = ${table}`,
    );
    if (Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n) >= n) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`inserts into ${table} never reached pg_stat`);
}

describe('planner statistics', () => {
  it('analyses tables that were never analysed, then only when they are stale again', async () => {
    // PostgreSQL's autovacuum would otherwise sometimes analyse the table first, and the refresh
    // rightly find nothing stale; PGlite has no autovacuum, where the setting changes nothing.
    await database.db.execute(sql`alter table families set (autovacuum_enabled = false)`);
    await database.db.execute(sql`alter table name_words set (autovacuum_enabled = false)`);
    await database.db.execute(sql`
      insert into families (slug, name_scientific)
      select 'family-' || i, 'Family ' || i from generate_series(1, 300) i`);
    expect(await reltuples('families')).toBeLessThan(0);
    await insertsVisible('families', 300);
    // The names' words, written by triggers, are refreshed with the records they follow.
    expect(await refreshStaleStatistics(database)).toEqual(
      expect.arrayContaining(['families', 'name_words']),
    );
    expect(await reltuples('families')).toBe(300);
    expect(await refreshStaleStatistics(database)).not.toContain('families');

    await database.db.execute(sql`
      insert into families (slug, name_scientific)
      select 'more-' || i, 'More ' || i from generate_series(1, 100) i`);
    await insertsVisible('families', 400);
    // Without VACUUM (while serving), ANALYZE alone refreshes the estimate.
    expect((await refreshStaleStatistics(database, { vacuum: false })).sort()).toEqual([
      'families',
      'name_words',
    ]);
    expect(await reltuples('families')).toBe(400);
  });
});
