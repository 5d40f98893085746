/**
 * On PGlite, as on PostgreSQL, a statement text sent a second time outside a transaction runs as a
 * named prepared statement from then on; its answers are the ones PGlite's own path gives, errors
 * keep their codes and leave the database usable, transactions are left alone and never see such a
 * statement run inside them, and no more than the configured number of texts is ever prepared.
 */
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, newPglite, openPglite } from '../../src/db/client.js';
import { preparePgliteRepeated } from '../../src/db/pglite-prepared.js';

const things = pgTable('things', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  tags: text('tags').array(),
  seen: timestamp('seen', { withTimezone: true, mode: 'string' }),
});

let client: PGlite;
let database: Database;

beforeAll(async () => {
  client = await newPglite();
  // A small limit, set before opening (which then keeps this wrapper rather than adding its own).
  await preparePgliteRepeated(client, 6);
  database = await openPglite({ instance: client });
  await client.exec(
    `create table things (id int primary key, name text not null, tags text[], seen timestamptz)`,
  );
}, 120_000);
afterAll(() => database.close());

/** The texts prepared by name in PGlite's one session. */
async function prepared(): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    `select statement from pg_prepared_statements where name like 'repeated_%' order by name`,
  );
  return rows.map((row) => row.statement);
}

describe('repeated statements on PGlite', () => {
  it('prepares a text on its second run and answers as the unprepared run did', async () => {
    await database.db.insert(things).values([
      { id: 1, name: 'comfrey', tags: ['bee', 'mulch'], seen: '2026-05-01T10:00:00.000Z' },
      { id: 2, name: 'yarrow', tags: null, seen: null },
    ]);
    const read = (from: number) =>
      database.db.select().from(things).where(sql`${things.id} >= ${from}`).orderBy(things.id);
    const first = await read(1);
    const second = await read(1);
    const third = await read(2);
    expect(second).toEqual(first);
    // Arrays and timestamps come back as the unprepared path gives them (drizzle's own parsers).
    expect(first[0]).toMatchObject({ id: 1, name: 'comfrey', tags: ['bee', 'mulch'] });
    expect(typeof first[0]?.seen).toBe('string');
    expect(third.map((t) => t.id)).toEqual([2]);
    expect((await prepared()).filter((s) => s.includes('"things"'))).toHaveLength(1);
  });

  it('passes null values and raw rows through the named statement', async () => {
    const count = (name: string | null) =>
      database.db.execute(sql`select count(*)::int as n from things where name is not distinct from ${name}`);
    await count(null);
    const rows = ((await count(null)) as unknown as { rows: { n: number }[] }).rows;
    expect(rows).toEqual([{ n: 0 }]);
    expect(((await count('yarrow')) as unknown as { rows: { n: number }[] }).rows).toEqual([{ n: 1 }]);
    expect((await prepared()).join('\n')).toMatch(/is not distinct from \$1/);
  });

  it('keeps an error code and leaves the session usable', async () => {
    const insert = (id: number) => database.db.insert(things).values({ id, name: `plant ${id}` });
    await insert(10);
    await insert(11);
    // The same text a third time, now prepared, with an id taken.
    await expect(insert(10)).rejects.toMatchObject({ cause: { code: '23505' } });
    // A bad value for a parameter fails at Bind, before the statement runs.
    const byId = (id: unknown) => database.db.execute(sql`select name from things where id = ${id}::int`);
    await byId(10);
    await expect(byId('not a number')).rejects.toMatchObject({ cause: { code: '22P02' } });
    expect(((await byId(11)) as unknown as { rows: { name: string }[] }).rows).toEqual([
      { name: 'plant 11' },
    ]);
    // The failed statements' implicit transactions were closed: none is left open or aborted.
    expect(client.isInTransaction()).toBe(false);
  });

  it('leaves statements inside transactions unprepared, and never runs inside one', async () => {
    const count = async () =>
      (
        (await database.db.execute(
          sql`select count(*)::int as n from things where name = 'shared'`,
        )) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]?.n;
    expect(await count()).toBe(0);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = () => {};
    const written = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.execute(sql`select ${i}::int as in_transaction`);
      await tx.insert(things).values({ id: 20, name: 'shared' });
      inserted();
      await held;
    });
    await written;
    // Sent while the transaction is open: it waits for the transaction, and sees its row only
    // once committed, never the uncommitted row from inside it.
    const during = count();
    let answered = false;
    void during.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await transaction;
    expect(await during).toBe(1);
    expect((await prepared()).join('\n')).not.toMatch(/in_transaction/);
  });

  it('fails a prepared statement once the database is closed', async () => {
    const closing = await newPglite();
    const closed = await openPglite({ instance: closing });
    const one = () => closed.db.execute(sql`select ${1}::int as one`);
    await one();
    await one();
    await closed.close();
    await expect(one()).rejects.toMatchObject({ cause: { message: expect.stringMatching(/closed/i) } });
  });

  it('prepares no more texts than its limit', async () => {
    for (const column of ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
      for (let i = 0; i < 2; i++) await database.db.execute(sql.raw(`select 1 as ${column}`));
    const texts = await prepared();
    expect(texts).toHaveLength(6);
    expect(texts.join('\n')).not.toMatch(/as g$/m);
    // A text past the limit still answers, unprepared.
    const { rows } = (await database.db.execute(sql.raw('select 1 as g'))) as unknown as { rows: unknown[] };
    expect(rows).toEqual([{ g: 1 }]);
  });
});
