/** Hardiness zones in datasets and in databases migrated from before the zone form was enforced. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDataset } from '../../src/dataset/check.js';
import { KIND } from '../../src/dataset/kinds.js';
import { migrate } from '../../src/db/migrate.js';
import { databaseBefore } from '../helpers/earlier-migrations.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hardiness-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('hardiness zones in a dataset', () => {
  it('reports a malformed or reversed zone on its line, naming the field once', () => {
    const species = (line: number, hardiness_zone_usda: string) => ({
      kind: KIND.species,
      file: 'species.jsonl',
      line,
      record: { slug: `s-${line}`, family: 'rosaceae', name_scientific: `S ${line}`, hardiness_zone_usda },
    });
    const { problems } = checkDataset([
      species(1, '4-8'),
      species(2, '8-4'),
      species(3, 'zone 7'),
      species(4, '6b-7a'),
    ]);
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [2, 'hardiness_zone_usda'],
      [3, 'hardiness_zone_usda'],
    ]);
    expect(problems[0]?.message).toMatch(/colder zone first/);
  });
});

describe('the hardiness migration', () => {
  // Runs the migrations on a fresh PGlite: over the default timeout on a busy machine.
  it('normalises stored zones, turns reversed ranges round and clears what it cannot read', async () => {
    // A database as it was before: every migration up to the one that introduces the zone form.
    const database = await databaseBefore('planner_hardiness_guilds', dir);
    try {
      const stored = ['4-8', ' USDA 5 - 9 ', 'Zone 7b', '6 to 8', '9–4', '8b-7a', 'H4', '5/6', '14', ''];
      await database.db.execute(
        sql`insert into families (id, slug, name_scientific) values ('00000000-0000-4000-8000-000000000001', 'f', 'F')`,
      );
      for (const [i, zone] of stored.entries()) {
        await database.db.execute(
          sql`insert into species (slug, family_id, name_scientific, hardiness_zone_usda)
              values (${`s-${i}`}, '00000000-0000-4000-8000-000000000001', ${`S ${i}`}, ${zone})`,
        );
      }
      await migrate(database);
      const { rows } = (await database.db.execute(
        sql`select hardiness_zone_usda as zone, hardiness_min as min, hardiness_max as max from species order by slug`,
      )) as unknown as { rows: { zone: string | null; min: number | null; max: number | null }[] };
      expect(rows.map((r) => r.zone)).toEqual([
        '4-8',
        '5-9',
        '7b',
        '6-8',
        '4-9',
        '7a-8b',
        null,
        null,
        null,
        null,
      ]);
      expect(rows[0]).toEqual({ zone: '4-8', min: 7, max: 16 });
      expect(rows[2]).toEqual({ zone: '7b', min: 14, max: 14 });
      expect(rows[5]).toEqual({ zone: '7a-8b', min: 13, max: 16 });
      expect(rows[6]).toEqual({ zone: null, min: null, max: null });
    } finally {
      await database.close();
    }
  }, 120_000);
});
