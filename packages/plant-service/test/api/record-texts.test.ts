/**
 * Records' JSON texts kept in memory (recordTexts) answer only for the row version they were
 * written from: a record changed since, announced or not, is written afresh by the database, and
 * a kept text answers exactly what the database would write.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueRepository, type RecordTexts, recordTexts } from '../../src/db/catalogue-repository.js';
import type { Database } from '../../src/db/client.js';
import { families, species } from '../../src/db/tables.js';
import { testDatabase } from '../helpers/database.js';

let database: Database;
const ids: string[] = [];

beforeAll(async () => {
  database = await testDatabase();
  const [family] = await database.db
    .insert(families)
    .values({ slug: 'texts-family', name_scientific: 'Textaceae' })
    .returning({ id: families.id });
  const rows = await database.db
    .insert(species)
    .values(
      Array.from({ length: 6 }, (_, i) => ({
        slug: `texts-${i}`,
        name_scientific: `Textus ${i}`,
        name_de: i % 2 === 0 ? `Text „${i}“` : null,
        family_id: family!.id,
      })),
    )
    .returning({ id: species.id });
  ids.push(...rows.map((r) => r.id));
});
afterAll(() => database.close());

const sorted = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('record texts', () => {
  it('keeps texts while there is room, then only for records read more often than those they push out', () => {
    const json = 'x'.repeat(879);
    // Room for two texts of 1,000 bytes (879 characters, a one-character key, a 120-byte entry).
    const texts = recordTexts(2_000, 1_000) as RecordTexts;
    for (const key of ['a', 'b']) {
      expect(texts.get(key)).toBeUndefined();
      texts.offer(key, '1', json);
    }
    expect(texts.get('a')).toEqual({ xmin: '1', json });
    // a: read twice, b: once. c, read once, does not push b out; read twice, it does.
    expect(texts.get('c')).toBeUndefined();
    texts.offer('c', '1', json);
    expect(texts.get('c')).toBeUndefined();
    texts.offer('c', '1', json);
    expect(texts.get('c')).toEqual({ xmin: '1', json });
    expect(texts.get('b')).toBeUndefined();
    expect(texts.get('a')).toEqual({ xmin: '1', json });
    expect(recordTexts(0)).toBeUndefined();
  });

  it('answers what the database writes, and a changed record as it is now', async () => {
    const texts = recordTexts(1_000_000) as RecordTexts;
    const kept = catalogueRepository(species, 'species', undefined, texts);
    const plain = catalogueRepository(species, 'species');
    // Read once with room to spare, so every text is kept; the second read answers from them.
    await kept.jsonByIds(database.db, ids);
    expect(ids.every((id) => texts.get(`species\u0000${id}`) !== undefined)).toBe(true);
    expect(sorted(await kept.jsonByIds(database.db, ids))).toEqual(
      sorted(await plain.jsonByIds(database.db, ids)),
    );

    // No change feed is told: only the row version says the kept text is old.
    await database.db.update(species).set({ name_en: 'changed since' }).where(eq(species.id, ids[0]!));
    const after = sorted(await kept.jsonByIds(database.db, ids));
    expect(after).toEqual(sorted(await plain.jsonByIds(database.db, ids)));
    const changed = after.find((row) => row.id === ids[0]);
    expect(JSON.parse(changed!.json).name_en).toBe('changed since');
  });

  it('answers what the database writes when the budget holds fewer texts than a read needs', async () => {
    // A budget of one text: each text kept drops the one before.
    const texts = recordTexts(2_500, 2_500) as RecordTexts;
    const kept = catalogueRepository(species, 'species', undefined, texts);
    const plain = catalogueRepository(species, 'species');
    for (let round = 0; round < 3; round++) {
      expect(sorted(await kept.jsonByIds(database.db, ids))).toEqual(
        sorted(await plain.jsonByIds(database.db, ids)),
      );
    }
  });
  it('answers a record whose text is dropped while its statement runs', async () => {
    // Each text is gone the moment it is read, as other requests' texts can push it out meanwhile.
    const entries = new Map<string, { xmin: string; json: string }>();
    const dropping: RecordTexts = {
      get(key) {
        const entry = entries.get(key);
        entries.delete(key);
        return entry;
      },
      offer: (key, xmin, json) => void entries.set(key, { xmin, json }),
    };
    const kept = catalogueRepository(species, 'species', undefined, dropping);
    const plain = catalogueRepository(species, 'species');
    await kept.jsonByIds(database.db, ids);
    expect(entries.size).toBe(ids.length);
    expect(sorted(await kept.jsonByIds(database.db, ids))).toEqual(
      sorted(await plain.jsonByIds(database.db, ids)),
    );
  });
});
