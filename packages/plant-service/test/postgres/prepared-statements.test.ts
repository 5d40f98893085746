/**
 * On PostgreSQL, a statement text sent a second time outside a transaction runs as a named prepared
 * statement from then on (parsed and planned once per connection); one-off texts and transactions
 * are left alone, and no more than the configured number of texts is ever prepared.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../../src/db/client.js';
import { testDatabase } from '../helpers/database.js';

let base: Database;
let database: Database;

beforeAll(async () => {
  base = await testDatabase();
  // One connection, so the prepared statements seen below are all the pool's.
  database = openPostgres({ url: base.url!, poolSize: 1, preparedStatements: 2 });
});
afterAll(async () => {
  await database.close();
  await base.close();
});

/** The rows of `query`, run through the pool. */
async function rows<Row>(query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The texts prepared on the pool's one connection. */
async function prepared(): Promise<string[]> {
  const found = await rows<{ statement: string }>(
    sql`select statement from pg_prepared_statements where name like 'repeated_%' order by name`,
  );
  return found.map((row) => row.statement);
}

describe('repeated statements', () => {
  it('prepares a text on its second run, with its values as parameters, and reuses it', async () => {
    for (const n of [1, 2, 3]) {
      const [row] = await rows<{ n: number }>(sql`select ${n}::int + 1 as n`);
      expect(row?.n).toBe(n + 1);
    }
    expect(await prepared()).toEqual(['select $1::int + 1 as n']);
  });

  it('leaves a text sent once, and statements inside transactions, unprepared', async () => {
    await database.db.execute(sql`select 'once' as once`);
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.execute(sql`select ${i}::int as in_transaction`);
    });
    expect((await prepared()).join('\n')).not.toMatch(/once|in_transaction/);
  });

  it('prepares no more texts than its limit', async () => {
    for (const column of ['a', 'b', 'c', 'd'])
      for (let i = 0; i < 2; i++) await database.db.execute(sql.raw(`select 1 as ${column}`));
    const texts = await prepared();
    // The limit is 2: the first test's text, the pg_prepared_statements query itself (sent
    // again by the second test), and nothing after them.
    expect(texts).toHaveLength(2);
    expect(texts.join('\n')).not.toMatch(/as [abcd]$/m);
  });
});
