/**
 * Search from the in-memory word index answers exactly what search in the database answers (the
 * same records, in the same order, with the same ranks), and steps aside whenever it may be
 * behind the data.
 */

import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChangeFeed, localChangeFeed } from '../../src/db/change-feed.js';
import type { Database } from '../../src/db/client.js';
import { cultivars, families, species } from '../../src/db/tables.js';
import {
  DESCRIPTION_CANDIDATES,
  MIN_WORD_PART,
  NAME_CANDIDATES,
  NAME_WORDS,
  searchAll,
} from '../../src/resources/search/repository.js';
import {
  parseTsvector,
  type SearchIndex,
  searchable,
  searchIndex,
} from '../../src/resources/search/search-index.js';
import { ENTITY_TYPES } from '../../src/schema/vocabularies.js';
import { builtOnDatabaseGone, testDatabase } from '../helpers/database.js';

/** The names of the prepared statements run, in order: which path answered a search. */
const statementsRun = vi.hoisted(() => [] as string[]);
vi.mock('../../src/db/prepared-sql.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/db/prepared-sql.js')>();
  return {
    ...original,
    runPrepared: (...args: Parameters<typeof original.runPrepared>) => {
      statementsRun.push(args[1]);
      return original.runPrepared(...args);
    },
  };
});

// Syllables shared by names and descriptions, so prefixes, word parts and descriptions overlap.
const SYLLABLES = [
  'ber',
  'lu',
  'mon',
  'ca',
  'sal',
  'vel',
  'ora',
  'ti',
  'qui',
  'na',
  'dor',
  'pe',
  'fra',
  'gel',
];
// Names that sort differently by byte and by collation, umlauts, twins only the id orders.
const ODD_NAMES = ['Ábies alba', 'abies Nordmanniana', 'Ürtica dioica', 'Möhre', 'Malus', 'Malus', 'aa'];

let database: Database;
let feed: ChangeFeed;
let index: SearchIndex;
const log = { info: () => {}, warn: () => {} };
const words: string[] = [];
let seed = 7;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
const word = (parts: number) => Array.from({ length: parts }, () => pick(SYLLABLES)).join('');
const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
/** The bounds searchAll gives the index. */
const OPTIONS = {
  words: NAME_WORDS,
  wordParts: true,
  partCandidates: NAME_CANDIDATES,
  describedCandidates: DESCRIPTION_CANDIDATES,
  minPrefix: MIN_WORD_PART,
};

beforeAll(async () => {
  database = await testDatabase();
  feed = localChangeFeed();
  // Built in chunks of 7, so chunks end inside runs of equal names.
  index = searchIndex(database.db, feed, log, { buildChunk: 7 });
  const familyIds: string[] = [];
  for (let f = 0; f < 6; f++) {
    const [row] = await database.db
      .insert(families)
      .values({
        slug: `word-family-${f}`,
        name_scientific: `${capital(word(3))}aceae`,
        name_en: rnd() < 0.5 ? `${word(2)} family` : null,
        description: rnd() < 0.5 ? `${word(2)} ${word(3)}` : null,
      })
      .returning({ id: families.id });
    familyIds.push(row!.id);
  }
  const speciesRows = Array.from({ length: 120 }, (_, i) => {
    const genus = word(2 + Math.floor(rnd() * 2));
    const epithet = word(2 + Math.floor(rnd() * 2));
    // Some names repeat a word, so a word has several positions in the names vector.
    const nameEn = rnd() < 0.3 ? `${epithet} ${word(2)}` : `${word(2)} ${word(1)}`;
    return {
      slug: `word-species-${i}`,
      family_id: pick(familyIds),
      name_scientific: i < ODD_NAMES.length ? (ODD_NAMES[i] as string) : `${capital(genus)} ${epithet}`,
      name_en: rnd() < 0.8 ? nameEn : null,
      name_de: rnd() < 0.6 ? capital(`${word(2)}${word(2)}`) : null,
      other_names: rnd() < 0.2 ? [capital(word(3)), `${word(2)} ${word(2)}`] : null,
      description: rnd() < 0.7 ? `${word(2)} ${word(3)} ${genus}` : null,
      description_de: rnd() < 0.3 ? `${word(3)} Möhre` : null,
    };
  });
  const inserted = await database.db.insert(species).values(speciesRows).returning({ id: species.id });
  const cultivarRows = Array.from({ length: 160 }, (_, i) => ({
    slug: `word-cultivar-${i}`,
    species_id: pick(inserted).id,
    name: capital(`${word(2)} ${rnd() < 0.3 ? word(1) : word(2)}`),
    name_en: rnd() < 0.3 ? word(3) : null,
    other_names: rnd() < 0.1 ? [word(2)] : null,
    description: rnd() < 0.5 ? `${word(2)} ${word(2)}` : null,
  }));
  await database.db.insert(cultivars).values(cultivarRows);
  for (const row of [...speciesRows, ...cultivarRows])
    for (const text of Object.values(row))
      if (typeof text === 'string')
        words.push(
          ...text
            .toLowerCase()
            .split(/[^a-zäöüß]+/)
            .filter(Boolean),
        );
  await index.refresh();
});
afterAll(async () => {
  await index.close();
  await database.close();
});

/** What people type: the start, or a part, of one or two words, in any case. */
const typed = fc
  .array(
    fc.record({
      word: fc.constantFrom(...words, 'zzyzx', 'ber', 'moeh', 'mohre'),
      from: fc.nat(3),
      length: fc.integer({ min: 2, max: 9 }),
      upper: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((terms) =>
    terms
      .map(({ word: w, from, length, upper }) => {
        const start = from <= 1 ? 0 : Math.min(from, Math.max(0, w.length - 4));
        const term = w.slice(start, start + length);
        return upper ? term.toUpperCase() : term;
      })
      .join(' '),
  );

/** Adds a species to the first family, through the change feed, and waits for the index to hold it. */
async function addSpecies(values: {
  slug: string;
  name_scientific: string;
  name_en?: string;
  description?: string;
}) {
  const [family] = await database.db.select({ id: families.id }).from(families).limit(1);
  await database.db.insert(species).values({ ...values, family_id: family!.id });
  feed.changed();
  await index.refresh();
}

describe('search from the word index', () => {
  it('gives the records, order and ranks the database gives, for any text and limit', async () => {
    await fc.assert(
      fc.asyncProperty(typed, fc.constantFrom(1, 3, 20, 100), async (text, limit) => {
        const fromDatabase = await searchAll(database.db, text, limit);
        const fromIndex = await searchAll(database.db, text, limit, index);
        expect(fromIndex, text).toEqual(fromDatabase);
      }),
      { numRuns: 150 },
    );
  });

  it('answers letter-only texts itself, within the bounds the database search keeps', () => {
    // The comparison above is exact only while no bound cuts a group short: the bounded sets are
    // arbitrary in the database and the first in name order here.
    for (const text of ['ber', 'sal', 'mon ca', 'quina', 'berlu']) {
      const found = index.find(text.split(' '), 100, OPTIONS);
      expect(found, text).toBeDefined();
      for (const candidates of [found!.parts, found!.described])
        for (const { at } of Object.values(candidates))
          expect(at.length).toBeLessThan(DESCRIPTION_CANDIDATES);
    }
  });

  it('takes the first description matches in name order per type when the bound cuts them', () => {
    fc.assert(
      fc.property(typed, fc.integer({ min: 1, max: 4 }), (text, wanted) => {
        const terms = text.split(' ');
        if (!searchable(terms)) return;
        // A limit no name group fills, so group 3 always runs; without a bound, every match.
        const all = index.find(terms, 10_000, {
          ...OPTIONS,
          partCandidates: 10_000,
          describedCandidates: 10_000,
        });
        const cut = index.find(terms, 10_000, {
          ...OPTIONS,
          partCandidates: 10_000,
          describedCandidates: wanted,
        });
        for (const type of ENTITY_TYPES) {
          const first = [...all!.described[type].at].sort((a, b) => a - b).slice(0, wanted);
          expect(cut!.described[type].at, `${text} ${type}`).toEqual(first);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('finds the records in their groups: prefixes, word parts, then descriptions', async () => {
    const [name] = await database.db
      .select({ name: species.name_scientific })
      .from(species)
      .where(eq(species.slug, 'word-species-20'));
    const genus = name!.name.split(' ')[0]!.toLowerCase();
    const results = await searchAll(database.db, genus.slice(0, 4), 100, index);
    const self = results.find((r) => r.slug === 'word-species-20');
    expect(self?.rank).toBeGreaterThanOrEqual(3);
    const ranks = results.map((r) => r.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  });

  it('steps aside for a record changed behind its back, and after the change feed moves', async () => {
    const [row] = await database.db
      .select({ id: species.id, name: species.name_scientific })
      .from(species)
      .where(eq(species.slug, 'word-species-30'));
    const first = row!.name.split(' ')[0]!.toLowerCase();
    const before = await searchAll(database.db, first, 100, index);
    expect(before.map((r) => r.slug)).toContain('word-species-30');
    // A write the feed has not announced yet (another instance's, before its NOTIFY arrives): the
    // index still finds the record by its old name, but its row version gives it away.
    await database.db.execute(
      sql`update ${species} set name_scientific = 'Zzyzx renamed', name_de = null, name_en = null where id = ${row!.id}`,
    );
    expect(index.find([first], 100, OPTIONS)).toBeDefined();
    const after = await searchAll(database.db, first, 100, index);
    expect(after).toEqual(await searchAll(database.db, first, 100));
    expect(after.filter((r) => r.rank >= 2).map((r) => r.slug)).not.toContain('word-species-30');
    expect((await searchAll(database.db, 'zzyzx', 100, index)).map((r) => r.slug)).toContain(
      'word-species-30',
    );

    feed.changed();
    expect(index.find([first], 100, OPTIONS)).toBeUndefined();
    await index.refresh();
    expect(await searchAll(database.db, 'zzyzx renamed', 100, index)).toEqual(
      await searchAll(database.db, 'zzyzx renamed', 100),
    );
  });

  it('reads the records of searches that names alone answer in one statement per turn, each checked', async () => {
    // A limit of 3 that group 1 fills for each text: nothing is left to rank in the database.
    const texts = ['ber', 'mon', 'sal'];
    statementsRun.length = 0;
    const together = await Promise.all(texts.map((text) => searchAll(database.db, text, 3, index)));
    expect(statementsRun).toEqual(['search_shown']);
    for (const [i, text] of texts.entries()) {
      expect(together[i]!.map((r) => r.rank).every((rank) => rank >= 3)).toBe(true);
      expect(together[i], text).toEqual(await searchAll(database.db, text, 3));
    }
    // Changed and deleted behind the index's back: the database answers.
    await addSpecies({ slug: 'qwyzzle-one', name_scientific: 'Qwyzzle alpha' });
    await addSpecies({ slug: 'qwyzzle-two', name_scientific: 'Qwyzzle beta' });
    expect((await searchAll(database.db, 'qwyzz', 20, index)).map((r) => r.slug)).toEqual([
      'qwyzzle-one',
      'qwyzzle-two',
    ]);
    await database.db.execute(
      sql`update ${species} set name_scientific = 'Other beta' where slug = 'qwyzzle-two'`,
    );
    expect((await searchAll(database.db, 'qwyzz', 20, index)).map((r) => r.slug)).toEqual(['qwyzzle-one']);
    await database.db.delete(species).where(eq(species.slug, 'qwyzzle-one'));
    statementsRun.length = 0;
    expect(await searchAll(database.db, 'qwyzz', 20, index)).toEqual([]);
    // The index's answer was tried first, then the database's groups.
    expect(statementsRun[0]).toBe('search_shown');
  });

  it('fails a search whose records cannot be read (the database gone), rather than answering without them', async () => {
    const gone = await testDatabase();
    await gone.close();
    // The index, built on the live database, finds the records by name; reading them fails.
    expect(index.find(['ber'], 3, OPTIONS)?.prefixed).toHaveLength(3);
    await expect(searchAll(gone.db, 'ber', 3, index)).rejects.toThrow();
  });

  it('logs a build that fails (the database gone) and leaves search to the database', async () => {
    const { index: failing, warnings } = await builtOnDatabaseGone(searchIndex);
    expect(warnings[0]).toMatch(/search index: build failed/);
    expect(failing.find(['ber'], 20, OPTIONS)).toBeUndefined();
    expect(await searchAll(database.db, 'ber', 20, failing)).toEqual(await searchAll(database.db, 'ber', 20));
  });

  it('answers itself when a word part ranks as high as a name prefix (2 + a word similarity of 1)', async () => {
    // "xojy" is inside "Hexojy", "wykej" a whole word: group 2; and every trigram of the text is in
    // the names (those of a word starting "xo" from "Xo"), so its rank is exactly 3, the lowest
    // rank of group 1.
    await addSpecies({ slug: 'word-part-rank-3', name_scientific: 'Hexojy wykej', name_en: 'Xo' });
    statementsRun.length = 0;
    const results = await searchAll(database.db, 'xojy wykej', 20, index);
    expect(results.map((r) => [r.slug, r.rank])).toEqual([['word-part-rank-3', 3]]);
    expect(statementsRun).toEqual(['search_found__1_']);
    expect(results).toEqual(await searchAll(database.db, 'xojy wykej', 20));
  });

  it('leaves out description matches when word parts fill the places left, unless one of those is gone', async () => {
    // "xojy" is inside the name "Hexojy wykej" (group 2) and starts a word of another species'
    // description (group 3).
    await addSpecies({
      slug: 'described-xojy',
      name_scientific: 'Plainus simplex',
      description: 'Makes xojyberry jam',
    });
    const described = (limit: number) =>
      Object.values(index.find(['xojy'], limit, OPTIONS)!.described).flatMap((c) => c.at);
    expect(described(1)).toEqual([]);
    expect(described(2)).toHaveLength(1);
    for (const limit of [1, 2]) {
      statementsRun.length = 0;
      const results = await searchAll(database.db, 'xojy', limit, index);
      expect(statementsRun).toHaveLength(1);
      expect(results.map((r) => r.slug)).toEqual(['word-part-rank-3', 'described-xojy'].slice(0, limit));
      expect(results).toEqual(await searchAll(database.db, 'xojy', limit));
    }
    // The word part deleted behind the index's back (another instance's write, before its
    // notification arrives): its place is empty, so the database answers, with the description match.
    await database.db.delete(species).where(eq(species.slug, 'word-part-rank-3'));
    expect(index.find(['xojy'], 1, OPTIONS)).toBeDefined();
    const after = await searchAll(database.db, 'xojy', 1, index);
    expect(after.map((r) => r.slug)).toEqual(['described-xojy']);
    expect(after).toEqual(await searchAll(database.db, 'xojy', 1));
  });

  it('stops a build when closed, leaving nothing half-built to search', async () => {
    const closing = searchIndex(database.db, localChangeFeed(), log, { buildChunk: 7 });
    const building = closing.refresh();
    await closing.close();
    await building;
    expect(closing.find(['ber'], 20, OPTIONS)).toBeUndefined();
  });
});

describe('reading a tsvector in its text form', () => {
  it('gives the lexemes, positions and weights the database holds, quotes and backslashes included', async () => {
    const vectors = [
      `'a':1A 'b''c':2,3B 'd\\\\e':4C 'f g':5 'ü':6D`,
      `'plain' 'x':1`,
      `'it''s':2A,1C 'tail\\\\':3`,
      '',
    ];
    for (const vector of vectors) {
      const result = (await database.db.execute(
        sql`select ${vector}::tsvector::text as text`,
      )) as unknown as {
        rows: { text: string }[];
      };
      const text = result.rows[0]!.text;
      const entries = (await database.db.execute(
        sql`select lexeme, coalesce(positions, '{}') as positions, coalesce(weights, '{}') as weights
          from unnest(${vector}::tsvector)`,
      )) as unknown as {
        rows: { lexeme: string; positions: number[] | string; weights: string[] | string }[];
      };
      const expected = entries.rows.map((e) => {
        const positions =
          typeof e.positions === 'string'
            ? e.positions.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
            : e.positions;
        const weights =
          typeof e.weights === 'string'
            ? e.weights.replace(/[{}]/g, '').split(',').filter(Boolean)
            : e.weights;
        return { word: e.lexeme, positions: positions.map((p, k) => `${p}${weights[k]}`) };
      });
      const parsed: { word: string; positions: string[] }[] = [];
      parseTsvector(
        text,
        (w) => parsed.push({ word: w, positions: [] }),
        (pos, weight) => parsed.at(-1)!.positions.push(`${pos}${'DCBA'[weight]}`),
      );
      expect(parsed, text).toEqual(expected);
    }
  });
});
