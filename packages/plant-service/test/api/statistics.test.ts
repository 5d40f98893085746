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
    await database.db.execute(sql`
      insert into families (slug, name_scientific)
      select 'family-' || i, 'Family ' || i from generate_series(1, 300) i`);
    expect(await reltuples('families')).toBeLessThan(0);
    await insertsVisible('families', 300);
    expect(await refreshStaleStatistics(database)).toContain('families');
    expect(await reltuples('families')).toBe(300);
    expect(await refreshStaleStatistics(database)).not.toContain('families');

    await database.db.execute(sql`
      insert into families (slug, name_scientific)
      select 'more-' || i, 'More ' || i from generate_series(1, 100) i`);
    await insertsVisible('families', 400);
    // Without VACUUM (while serving), ANALYZE alone refreshes the estimate.
    expect(await refreshStaleStatistics(database, { vacuum: false })).toEqual(['families']);
    expect(await reltuples('families')).toBe(400);
  });
});
