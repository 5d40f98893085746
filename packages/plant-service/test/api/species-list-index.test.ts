/**
 * The species list from memory answers exactly what the database answers: the same page, total and
 * facet counts for any filter set, and the same guild candidates, and it steps aside whenever it may
 * be behind the data.
 */

import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChangeFeed, localChangeFeed } from '../../src/db/change-feed.js';
import type { Database } from '../../src/db/client.js';
import { companions, families, species } from '../../src/db/tables.js';
import { catalogueRepositories } from '../../src/resources/catalogue.js';
import { guildRepository } from '../../src/resources/guilds/repository.js';
import type { Guild } from '../../src/resources/guilds/schemas.js';
import { guildService } from '../../src/resources/guilds/service.js';
import { type SpeciesListIndex, speciesListIndex } from '../../src/resources/species/list-index.js';
import { speciesService } from '../../src/resources/species/service.js';
import type { SpeciesListQuery } from '../../src/schema/species.js';
import { FACETS } from '../../src/schema/species-facets.js';
import {
  EVIDENCE_LEVELS,
  NATIVE_STATUSES,
  PLANT_LAYERS,
  TOLERANCE_LEVELS,
} from '../../src/schema/vocabularies.js';
import { builtOnDatabaseGone, statementCounter, testDatabase } from '../helpers/database.js';

const sent = statementCounter();

const ZONES = ['3', '5a', '6-8', '6b-9a', '7a-7b', '8b', '10-12', 'bogus', null];
// Names that sort differently by byte and by collation, and twins that only the id orders.
const NAMES = [
  'Abies alba',
  'abies nordmanniana',
  'Ábies pinsapo',
  'Zea mays',
  'aa',
  'Malus',
  'Malus',
  'Ürtica',
];

let database: Database;
let feed: ChangeFeed;
let index: SpeciesListIndex;
const log = { info: () => {}, warn: () => {} };
let indexed: ReturnType<typeof speciesService>;
let plain: ReturnType<typeof speciesService>;
let indexedGuilds: ReturnType<typeof guildService>;
let plainGuilds: ReturnType<typeof guildService>;
const familySlugs: string[] = [];
const speciesIds: string[] = [];

beforeAll(async () => {
  database = await testDatabase();
  feed = localChangeFeed();
  // Read in chunks of 7, so chunks end inside runs of equal names.
  index = speciesListIndex(database.db, feed, log, { buildChunk: 7 });
  indexed = speciesService(database, catalogueRepositories(), index);
  plain = speciesService(database, catalogueRepositories());
  indexedGuilds = guildService(database, index);
  plainGuilds = guildService(database);
  // A seeded spread of values, nulls included, over five families (and one without species).
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const maybe = <T>(x: T) => (rnd() < 0.2 ? null : x);
  const familyIds: string[] = [];
  for (let f = 0; f < 6; f++) {
    const [row] = await database.db
      .insert(families)
      .values({ slug: `index-family-${f}`, name_scientific: `Indexaceae ${f}` })
      .returning({ id: families.id, slug: families.slug });
    familyIds.push(row!.id);
    familySlugs.push(row!.slug);
  }
  const rows = Array.from({ length: 240 }, (_, i) => ({
    slug: `index-species-${i}`,
    family_id: familyIds[i % 5]!,
    name_scientific: `${pick(NAMES)}${rnd() < 0.5 ? '' : ` ${Math.floor(rnd() * 20)}`}`,
    plant_layer: maybe(pick(PLANT_LAYERS)),
    nitrogen_fixer: maybe(rnd() < 0.3),
    dynamic_accumulator: maybe(rnd() < 0.3),
    drought_tolerance: maybe(pick(TOLERANCE_LEVELS)),
    native_status: maybe(pick(NATIVE_STATUSES)),
    nectar_value: maybe(Math.floor(rnd() * 5)),
    wild_bee_count: maybe(Math.floor(rnd() * 30)),
    hardiness_zone_usda: pick(ZONES),
    attracts_pollinators: maybe(rnd() < 0.3),
    attracts_beneficial_insects: maybe(rnd() < 0.2),
    mulch_plant: maybe(rnd() < 0.2),
    guild_role: rnd() < 0.2 ? ['ground_cover'] : null,
  }));
  const inserted = await database.db.insert(species).values(rows).returning({ id: species.id });
  speciesIds.push(...inserted.map((r) => r.id));
  // Relations of every kind around the first species, which the guild leaves out or merges in.
  const relations = new Map<string, { species_a_id: string; species_b_id: string; relationship: string }>();
  for (let n = 0; n < 150; n++) {
    const a = speciesIds[Math.floor(rnd() * 40)]!;
    const b = speciesIds[Math.floor(rnd() * speciesIds.length)]!;
    const pair = [a, b].sort().join();
    if (a === b || relations.has(pair)) continue;
    relations.set(pair, {
      species_a_id: a,
      species_b_id: b,
      relationship: pick(['beneficial', 'antagonistic', 'neutral']),
      evidence: maybe(pick(EVIDENCE_LEVELS)),
    } as never);
  }
  await database.db.insert(companions).values([...relations.values()] as never);
  await index.refresh();
});
afterAll(() => database.close());

const query = fc.record(
  {
    family: fc.oneof(
      fc.constantFrom('index-family-0', 'index-family-4', 'index-family-5'),
      fc.constant('nope'),
    ),
    plant_layer: fc.constantFrom(...PLANT_LAYERS),
    nitrogen_fixer: fc.boolean(),
    dynamic_accumulator: fc.boolean(),
    drought_tolerance: fc.constantFrom(...TOLERANCE_LEVELS),
    native_status: fc.constantFrom(...NATIVE_STATUSES),
    min_nectar: fc.integer({ min: 0, max: 5 }),
    min_bees: fc.integer({ min: 0, max: 30 }),
    hardiness_zone: fc.constantFrom('1', '5a', '6', '7b', '9', '11a', '13b'),
    facets: fc.subarray([...FACETS], { minLength: 1 }).map((names) => names.join(',')),
  },
  { requiredKeys: [] },
);
const paging = fc.record({
  page: fc.integer({ min: 1, max: 12 }),
  per_page: fc.integer({ min: 1, max: 40 }),
});

describe('species list from memory', () => {
  it('gives the page, total and facets the database gives, for any filter set', async () => {
    await fc.assert(
      fc.asyncProperty(query, paging, async (filters, pages) => {
        const q = { ...filters, ...pages } as SpeciesListQuery;
        expect(index.select(q, [])).toBeDefined();
        expect(JSON.parse(await indexed.list(q))).toEqual(JSON.parse(await plain.list(q)));
      }),
      { numRuns: 150, seed: 20261124 },
    );
  });

  it("gives the database's page for a hardiness zone, alone and with other filters (the property above seldom finds a listed zone's species)", async () => {
    for (const hardiness_zone of ['7', '9a', '11', '12b'])
      for (const more of [{}, { family: 'index-family-0' }, { nitrogen_fixer: true }]) {
        const q = { hardiness_zone, ...more, page: 1, per_page: 40 } as SpeciesListQuery;
        const fromIndex = index.select(q, []);
        expect(fromIndex?.total, JSON.stringify(q)).toBeGreaterThan(0);
        expect(JSON.parse(await indexed.list(q))).toEqual(JSON.parse(await plain.list(q)));
      }
  });

  it('gives the guild candidates the database gives, for any species and filters', async () => {
    const guildQuery = fc.record({
      focal: fc.integer({ min: 0, max: 59 }),
      limit: fc.integer({ min: 1, max: 20 }),
      hardiness_zone: fc.option(fc.constantFrom('1', '5a', '6', '7b', '9', '11a', '13b'), { nil: undefined }),
      native_status: fc.option(fc.constantFrom(...NATIVE_STATUSES), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(guildQuery, async ({ focal, ...q }) => {
        expect(index.guildCandidates({ excluded: [], zone: null, nativeStatus: null }, 1)).toBeDefined();
        const ref = speciesIds[focal]!;
        expect(await indexedGuilds.guild(ref, q)).toEqual(await plainGuilds.guild(ref, q));
      }),
      { numRuns: 120, seed: 20261124 },
    );
  });

  it("answers a guild in two statements at most, and in one once the candidates' texts are kept", async () => {
    await index.refresh();
    const statements = async (guilds: ReturnType<typeof guildService>) => {
      const before = sent();
      await guilds.guild(speciesIds[0]!, { limit: 5, hardiness_zone: '6' });
      return sent() - before;
    };
    expect(await statements(plainGuilds)).toBe(2);
    // From the index: the picks' row versions come with the species and its relations, and the
    // first time their facts are read too; after that the texts written from those versions serve.
    const fresh = guildService(database, index);
    expect(await statements(fresh)).toBe(2);
    expect(await statements(fresh)).toBe(1);
  });

  it("picks again when the species is related to more of a group's best than were picked beyond the limit", async () => {
    await index.refresh();
    // The four best nitrogen fixers (two for the limit, two picked beyond it).
    const fixers = (JSON.parse(await plainGuilds.guild(speciesIds[239]!, { limit: 6 })) as Guild).functions
      .nitrogen_fixer;
    const best = (fixers ?? []).filter((c) => c.reasons.companion === null).slice(0, 4);
    expect(best).toHaveLength(4);
    const [family] = await database.db.select({ id: families.id }).from(families).limit(1);
    const [focal] = await database.db
      .insert(species)
      .values({ slug: 'index-focal', name_scientific: 'Focalis testis', family_id: family!.id })
      .returning({ id: species.id });
    await database.db.insert(companions).values(
      best.map((c) => ({
        species_a_id: focal!.id,
        species_b_id: c.id,
        relationship: 'antagonistic',
      })) as never,
    );
    const q = { limit: 2 };
    const answer = JSON.parse(await indexedGuilds.guild('index-focal', q)) as Guild;
    expect(answer).toEqual(JSON.parse(await plainGuilds.guild('index-focal', q)));
    const picked = (answer.functions.nitrogen_fixer ?? []).map((c) => c.id);
    expect(picked).toHaveLength(2);
    expect(picked).not.toContain(best[0]!.id);
    await database.db.delete(companions).where(eq(companions.species_a_id, focal!.id));
    await database.db.delete(species).where(eq(species.id, focal!.id));
  });

  it('answers from the database when a candidate changes between reading its version and its facts', async () => {
    await index.refresh();
    // No texts kept yet, so the picks' facts are read after their versions.
    const fresh = guildService(database, index);
    const ref = speciesIds[0]!;
    const q = { limit: 3 };
    const before = JSON.parse(await plainGuilds.guild(ref, q)) as Guild;
    const best = (before.functions.nitrogen_fixer ?? []).find((c) => c.reasons.companion === null);
    expect(best).toBeDefined();
    const read = guildRepository.factsByIds.bind(guildRepository);
    const between = vi.spyOn(guildRepository, 'factsByIds').mockImplementationOnce(async (db, ids) => {
      await database.db.update(species).set({ nitrogen_fixer: false }).where(eq(species.id, best!.id));
      return read(db, ids);
    });
    try {
      const answer = JSON.parse(await fresh.guild(ref, q)) as Guild;
      expect(between).toHaveBeenCalled();
      expect(answer).toEqual(JSON.parse(await plainGuilds.guild(ref, q)));
      expect((answer.functions.nitrogen_fixer ?? []).map((c) => c.id)).not.toContain(best!.id);
    } finally {
      between.mockRestore();
      await database.db.update(species).set({ nitrogen_fixer: true }).where(eq(species.id, best!.id));
      feed.changed();
    }
  });

  it('never picks guild candidates from records changed after it was read', async () => {
    await index.refresh();
    const ref = speciesIds[0]!;
    const q = { limit: 3 };
    const before = JSON.parse(await indexedGuilds.guild(ref, q)) as Guild;
    // The best nitrogen fixer the index picked (a related species' facts are read with its relation).
    const best = (before.functions.nitrogen_fixer ?? []).find((c) => c.reasons.companion === null);
    expect(best).toBeDefined();
    // Not announced: only the row version tells that the best nitrogen fixer no longer is one.
    await database.db.update(species).set({ nitrogen_fixer: false }).where(eq(species.id, best!.id));
    const after = JSON.parse(await indexedGuilds.guild(ref, q)) as Guild;
    expect(after).toEqual(JSON.parse(await plainGuilds.guild(ref, q)));
    expect((after.functions.nitrogen_fixer ?? []).map((c) => c.id)).not.toContain(best!.id);
    await database.db.update(species).set({ nitrogen_fixer: true }).where(eq(species.id, best!.id));
    feed.changed();
  });

  it('never answers a guild candidate from the text kept for an older row version', async () => {
    await index.refresh();
    const ref = speciesIds[0]!;
    const q = { limit: 3 };
    const before = JSON.parse(await indexedGuilds.guild(ref, q)) as Guild;
    const kept = (before.functions.pollinator_attractor ?? []).find((c) => c.reasons.companion === null);
    expect(kept).toBeDefined();
    // A change the index does not rank by, announced: after the rebuild the species is picked
    // again, now with a new row version whose text must be written afresh.
    await database.db
      .update(species)
      .set({ name_en: 'renamed for the test' })
      .where(eq(species.id, kept!.id));
    feed.changed();
    await index.refresh();
    const after = JSON.parse(await indexedGuilds.guild(ref, q)) as Guild;
    const again = (after.functions.pollinator_attractor ?? []).find((c) => c.id === kept!.id);
    expect(again?.name_en).toBe('renamed for the test');
    expect(after).toEqual(JSON.parse(await plainGuilds.guild(ref, q)));
    await database.db.update(species).set({ name_en: kept!.name_en }).where(eq(species.id, kept!.id));
    feed.changed();
  });

  it('leaves a search to the database', () => {
    expect(index.select({ page: 1, per_page: 25, search: 'abies' }, [])).toBeUndefined();
  });

  it('steps aside after an announced write until it is rebuilt, and then shows the write', async () => {
    const q = { page: 1, per_page: 100, family: 'index-family-1' } as SpeciesListQuery;
    const target = JSON.parse(await indexed.list(q)).data[0] as { id: string; name_scientific: string };
    await database.db
      .update(species)
      .set({ family_id: (await familyId('index-family-5'))! })
      .where(eq(species.id, target.id));
    feed.changed();
    expect(index.select(q, [])).toBeUndefined();
    const moved = { ...q, family: 'index-family-5' };
    expect(JSON.parse(await indexed.list(moved)).data.map((s: { id: string }) => s.id)).toContain(target.id);
    await index.refresh();
    expect(index.select(moved, [])?.ids).toContain(target.id);
    expect(JSON.parse(await indexed.list(moved))).toEqual(JSON.parse(await plain.list(moved)));
  });

  it('never serves a page whose records changed or went after it was read, even before the write is announced', async () => {
    await index.refresh();
    const q = { page: 1, per_page: 10 } as SpeciesListQuery;
    const before = JSON.parse(await indexed.list(q)) as { data: { id: string }[]; total: number };
    const [first, second] = before.data;
    // Not announced: the feed's version stays, so only the row versions can tell. Renamed, the
    // first record sorts last: served from memory it would still head the page, under its new name.
    await database.db.update(species).set({ name_scientific: 'Zzz moved' }).where(eq(species.id, first!.id));
    const updated = JSON.parse(await indexed.list(q));
    expect(updated).toEqual(JSON.parse(await plain.list(q)));
    expect(updated.data.map((s: { id: string }) => s.id)).not.toContain(first!.id);
    await database.db.delete(species).where(eq(species.id, second!.id));
    const deleted = JSON.parse(await indexed.list(q));
    expect(deleted).toEqual(JSON.parse(await plain.list(q)));
    expect(deleted.data.map((s: { id: string }) => s.id)).not.toContain(second!.id);
    expect(deleted.total).toBe(before.total - 1);
  });

  it('stops a build when closed, leaving nothing half-built to serve from', async () => {
    const closing = speciesListIndex(database.db, localChangeFeed(), log, { buildChunk: 7 });
    const building = closing.refresh();
    await closing.close();
    await building;
    expect(closing.select({ page: 1, per_page: 25 }, [])).toBeUndefined();
  });

  it('is not used while the change feed is not live', async () => {
    const offline: ChangeFeed = { version: 0, live: false, changed: () => {}, close: async () => {} };
    const idle = speciesListIndex(database.db, offline, log);
    await idle.refresh();
    expect(idle.select({ page: 1, per_page: 25 }, [])).toBeUndefined();
  });

  it('logs a build that fails (the database gone) and leaves lists and guilds to the database', async () => {
    const { index: failing, warnings } = await builtOnDatabaseGone(speciesListIndex);
    expect(warnings[0]).toMatch(/build failed/);
    expect(failing.select({ page: 1, per_page: 25 }, [])).toBeUndefined();
    expect(failing.guildCandidates({ excluded: [], zone: null, nativeStatus: null }, 5)).toBeUndefined();
  });
});

async function familyId(slug: string): Promise<string | undefined> {
  const [row] = await database.db.select({ id: families.id }).from(families).where(eq(families.slug, slug));
  return row?.id;
}
