/**
 * Lookups by slug or uuid made in the same turn of the event loop share one statement, and each
 * caller still gets exactly its own record (or nothing), read fresh from the database.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueRepository } from '../../src/db/catalogue-repository.js';
import type { Database } from '../../src/db/client.js';
import { families } from '../../src/db/tables.js';
import { statementCounter, testDatabase } from '../helpers/database.js';

const sent = statementCounter();

let database: Database;
const repository = catalogueRepository(families, 'family');
const stored: { id: string; slug: string }[] = [];

beforeAll(async () => {
  database = await testDatabase();
  for (let i = 0; i < 6; i++) {
    stored.push(
      await repository.insert(database.db, `lookup-family-${i}`, {
        name_scientific: `Lookupaceae${i}`,
        name_en: `Lookup ${i}`,
      }),
    );
  }
});
afterAll(() => database.close());

/** The number of statements `work` sent. */
async function statements<T>(work: () => Promise<T>): Promise<{ result: T; count: number }> {
  const before = sent();
  const result = await work();
  return { result, count: sent() - before };
}

describe('lookups by ref', () => {
  it('answers the lookups of one turn with one statement per kind of ref, each its own record', async () => {
    const refs = [
      ...stored.map((f) => f.slug),
      ...stored.map((f) => f.id.toUpperCase()),
      stored[0]!.slug, // the same ref twice in one turn
      'no-such-family',
      '00000000-0000-4000-8000-000000000000',
    ];
    const { result, count } = await statements(() =>
      Promise.all(refs.map((ref) => repository.byRef(database.db, ref))),
    );
    expect(result.map((row) => row?.id)).toEqual([
      ...stored.map((f) => f.id),
      ...stored.map((f) => f.id),
      stored[0]!.id,
      undefined,
      undefined,
    ]);
    // One statement for the slugs and one for the uuids, where one each per lookup was 15.
    expect(count).toBe(2);
  });

  it('sends a lone lookup at once, as one statement', async () => {
    const { result, count } = await statements(() => repository.byRef(database.db, stored[1]!.slug));
    expect(result?.id).toBe(stored[1]!.id);
    expect(count).toBe(1);
  });

  it('reads every lookup fresh: a committed update is seen by the next one', async () => {
    const [a, b] = [stored[2]!, stored[3]!];
    await Promise.all([repository.byRef(database.db, a.slug), repository.byRef(database.db, b.slug)]);
    await database.db.update(families).set({ name_en: 'Renamed' }).where(eq(families.id, a.id));
    const [again] = await Promise.all([
      repository.byRef(database.db, a.slug),
      repository.byRef(database.db, b.slug),
    ]);
    expect(again?.name_en).toBe('Renamed');
  });

  it('inside a transaction looks up on its own, seeing the transaction’s writes', async () => {
    const c = stored[4]!;
    const seen = await database.db.transaction(async (tx) => {
      await tx.update(families).set({ name_en: 'Uncommitted' }).where(eq(families.id, c.id));
      return Promise.all([repository.byRef(tx, c.slug), repository.byRef(tx, c.id)]);
    });
    expect(seen.map((row) => row?.name_en)).toEqual(['Uncommitted', 'Uncommitted']);
  });
});
