/**
 * The cultivar list from memory answers exactly what the database answers: the same page and total
 * for every species and page, and it steps aside whenever it may be behind the data.
 */

import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeFeed, localChangeFeed } from '../../src/db/change-feed.js';
import type { Database } from '../../src/db/client.js';
import { cultivars, families, species } from '../../src/db/tables.js';
import { catalogueRepositories } from '../../src/resources/catalogue.js';
import { type CultivarListIndex, cultivarListIndex } from '../../src/resources/cultivars/list-index.js';
import { cultivarService } from '../../src/resources/cultivars/service.js';
import type { CultivarListQuery } from '../../src/schema/cultivars.js';
import { builtOnDatabaseGone, statementCounter, testDatabase } from '../helpers/database.js';

const sent = statementCounter();

// Names that sort differently by byte and by collation, and twins that only the id orders.
const NAMES = ['Abendrot', 'abendstern', 'Ábendglut', 'Zitrone', 'aa', 'Roter', 'Roter', 'Überraschung'];

let database: Database;
let feed: ChangeFeed;
let index: CultivarListIndex;
const log = { info: () => {}, warn: () => {} };
let indexed: ReturnType<typeof cultivarService>;
let plain: ReturnType<typeof cultivarService>;
const speciesIds: string[] = [];

interface Listed {
  data: { id: string; name: string }[];
  total: number;
}
const list = async (service: ReturnType<typeof cultivarService>, q: CultivarListQuery) =>
  JSON.parse(await service.list(q)) as Listed;

beforeAll(async () => {
  database = await testDatabase();
  feed = localChangeFeed();
  // Read in chunks of 7, so chunks end inside runs of equal names.
  index = cultivarListIndex(database.db, feed, log, { buildChunk: 7 });
  indexed = cultivarService(database, catalogueRepositories(), index);
  plain = cultivarService(database, catalogueRepositories());
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const [family] = await database.db
    .insert(families)
    .values({ slug: 'cv-index-family', name_scientific: 'Cultivaceae' })
    .returning({ id: families.id });
  // Twelve species; the last two have no cultivars.
  const inserted = await database.db
    .insert(species)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        slug: `cv-index-species-${i}`,
        family_id: family!.id,
        name_scientific: `Cultivus ${i}`,
      })),
    )
    .returning({ id: species.id });
  speciesIds.push(...inserted.map((r) => r.id));
  await database.db.insert(cultivars).values(
    Array.from({ length: 150 }, (_, i) => ({
      slug: `cv-index-${i}`,
      // Most cultivars on a few species, so some species have pages to turn.
      species_id: speciesIds[Math.floor(rnd() ** 2 * 10)]!,
      name: `${NAMES[Math.floor(rnd() * NAMES.length)]}${rnd() < 0.5 ? '' : ` ${Math.floor(rnd() * 9)}`}`,
    })),
  );
  await index.refresh();
});
afterAll(() => database.close());

const query = fc.record(
  {
    species: fc.oneof(
      fc.integer({ min: 0, max: 11 }).map((i) => `cv-index-species-${i}`),
      fc.constant('no-such-species'),
    ),
    page: fc.integer({ min: 1, max: 12 }),
    per_page: fc.integer({ min: 1, max: 40 }),
  },
  { requiredKeys: ['page', 'per_page'] },
);

describe('cultivar list from memory', () => {
  it('gives the page and total the database gives, for every species and page', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        expect(index.select(q)).toBeDefined();
        expect(await list(indexed, q)).toEqual(await list(plain, q));
      }),
      { numRuns: 150, seed: 20261128 },
    );
    // The whole list, and a species' whole list, in one page each: every record in its place.
    const all = await list(indexed, { page: 1, per_page: 200 });
    expect(all.data).toHaveLength(150);
    expect(all).toEqual(await list(plain, { page: 1, per_page: 200 }));
  });

  it('answers a page, however deep, in one statement', async () => {
    await index.refresh();
    const statements = async (service: ReturnType<typeof cultivarService>, q: CultivarListQuery) => {
      const before = sent();
      await service.list(q);
      return sent() - before;
    };
    const deep = { page: 14, per_page: 10 };
    expect(await statements(indexed, deep)).toBe(1);
    expect(await statements(indexed, { page: 2, per_page: 5, species: 'cv-index-species-0' })).toBe(1);
    expect((await list(indexed, deep)).data).toHaveLength(10);
  });

  it('reads the pages requested in the same turn in one statement, each its own', async () => {
    await index.refresh();
    const queries = [
      { page: 1, per_page: 10 },
      { page: 3, per_page: 7 },
      { page: 2, per_page: 5, species: 'cv-index-species-0' },
    ];
    const before = sent();
    const pages = await Promise.all(queries.map((q) => list(indexed, q)));
    expect(sent() - before).toBe(1);
    for (const [i, q] of queries.entries()) expect(pages[i]).toEqual(await list(plain, q));
  });

  it('fails a page whose records cannot be read, rather than answering without them', async () => {
    const gone = await testDatabase();
    await gone.close();
    const chosen = { ids: [speciesIds[0] as string], holds: () => true };
    await expect(catalogueRepositories().cultivars.chosenJson(gone.db, chosen)).rejects.toThrow();
  });

  it('leaves a search to the database', () => {
    expect(index.select({ page: 1, per_page: 25, search: 'roter' })).toBeUndefined();
  });

  it('steps aside after an announced write until it is rebuilt, and then shows the write', async () => {
    await index.refresh();
    const q = { page: 1, per_page: 100, species: 'cv-index-species-11' };
    expect((await list(indexed, q)).total).toBe(0);
    const [moved] = (await list(indexed, { page: 1, per_page: 1, species: 'cv-index-species-0' })).data;
    await database.db
      .update(cultivars)
      .set({ species_id: speciesIds[11]! })
      .where(eq(cultivars.id, moved!.id));
    feed.changed();
    expect(index.select(q)).toBeUndefined();
    expect((await list(indexed, q)).data.map((c) => c.id)).toEqual([moved!.id]);
    await index.refresh();
    expect(index.select(q)?.ids).toEqual([moved!.id]);
    expect(await list(indexed, q)).toEqual(await list(plain, q));
  });

  it('never serves a page whose records changed or went after it was read, even before the write is announced', async () => {
    await index.refresh();
    const q = { page: 1, per_page: 10 };
    const before = await list(indexed, q);
    const [first, second] = before.data;
    // Not announced: the feed's version stays, so only the row versions can tell. Renamed, the
    // first record sorts last: served from memory it would still head the page, under its new name.
    await database.db.update(cultivars).set({ name: 'Zzz moved' }).where(eq(cultivars.id, first!.id));
    const updated = await list(indexed, q);
    expect(updated).toEqual(await list(plain, q));
    expect(updated.data.map((c) => c.id)).not.toContain(first!.id);
    await database.db.delete(cultivars).where(eq(cultivars.id, second!.id));
    const deleted = await list(indexed, q);
    expect(deleted).toEqual(await list(plain, q));
    expect(deleted.data.map((c) => c.id)).not.toContain(second!.id);
    expect(deleted.total).toBe(before.total - 1);
    feed.changed();
  });

  it('stops a build when closed, leaving nothing half-built to serve from', async () => {
    const closing = cultivarListIndex(database.db, localChangeFeed(), log, { buildChunk: 7 });
    const building = closing.refresh();
    await closing.close();
    await building;
    expect(closing.select({ page: 1, per_page: 25 })).toBeUndefined();
  });

  it('is not used while the change feed is not live', async () => {
    const offline: ChangeFeed = { version: 0, live: false, changed: () => {}, close: async () => {} };
    const idle = cultivarListIndex(database.db, offline, log);
    await idle.refresh();
    expect(idle.select({ page: 1, per_page: 25 })).toBeUndefined();
  });

  it('logs a build that fails (the database gone) and leaves lists to the database', async () => {
    const { index: failing, warnings } = await builtOnDatabaseGone(cultivarListIndex);
    expect(warnings[0]).toMatch(/build failed/);
    expect(failing.select({ page: 1, per_page: 25 })).toBeUndefined();
  });
});
