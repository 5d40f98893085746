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

describe('planner statistics', () => {
  it('analyses tables that were never analysed, then only when they are stale again', async () => {
    await database.db.execute(sql`
      insert into families (slug, name_scientific)
      select 'family-' || i, 'Family ' || i from generate_series(1, 300) i`);
    expect(await reltuples('families')).toBeLessThan(0);
    expect(await refreshStaleStatistics(database)).toContain('families');
    expect(await reltuples('families')).toBe(300);
    expect(await refreshStaleStatistics(database)).not.toContain('families');
  });
});
