/**
 * Species and cultivar rows keep their response text in the row (a 4 KB toast threshold), lz4-
 * compressed where the server has lz4; rows written before the migration are written again under
 * those settings with the same content.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { backend, testDatabase } from '../helpers/database.js';
import { databaseBefore } from '../helpers/earlier-migrations.js';

let database: Database;
let dir: string;
beforeAll(async () => {
  database = await testDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'record-storage-'));
});
afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

const rows = async <T>(db: Database, query: ReturnType<typeof sql>) =>
  ((await db.db.execute(query)) as unknown as { rows: T[] }).rows;

describe('record storage', () => {
  it('keeps rows up to 4 KB in their page, and compresses texts with lz4 where the server has it', async () => {
    const options = await rows<{ relname: string; reloptions: string[] | null }>(
      database,
      sql`select relname, reloptions from pg_class where relname in ('species', 'cultivars') order by relname`,
    );
    expect(options).toEqual([
      { relname: 'cultivars', reloptions: ['toast_tuple_target=4096'] },
      { relname: 'species', reloptions: ['toast_tuple_target=4096'] },
    ]);
    const [lz4] = await rows<{ available: boolean }>(
      database,
      sql`select 'lz4' = any(enumvals) as available from pg_settings where name = 'default_toast_compression'`,
    );
    // Debian's PostgreSQL has lz4; PGlite is built without it.
    expect(lz4?.available).toBe(backend === 'postgres');
    const methods = await rows<{ attname: string; method: string }>(
      database,
      sql`select c.relname || '.' || a.attname as attname, a.attcompression::text as method
          from pg_attribute a join pg_class c on c.oid = a.attrelid
          where c.relname in ('species', 'cultivars') and a.attname in ('json_text', 'search')
          order by 1`,
    );
    const expected = backend === 'postgres' ? 'l' : '';
    expect(methods).toEqual(
      ['cultivars.json_text', 'cultivars.search', 'species.json_text', 'species.search'].map((attname) => ({
        attname,
        method: expected,
      })),
    );
  });

  const PLANNER = [
    'legal_status',
    'hazards',
    'edible_parts',
    'life_cycle',
    'woody',
    'leaf_retention',
    'height_m',
    'width_m',
    'light',
    'flower_sex',
    'self_fertile',
    'flowering_months',
    'nutrient_demand',
  ];

  // Runs every migration on a fresh PGlite: over the default timeout on a busy machine.
  it('writes the rows of an older release again, with the same content and name words', async () => {
    const before = await databaseBefore('record_text_storage', dir);
    try {
      const family = '00000000-0000-4000-8000-000000000001';
      await before.db.execute(
        sql`insert into families (id, slug, name_scientific) values (${family}, 'rosaceae', 'Rosaceae')`,
      );
      await before.db.execute(
        sql`insert into species (id, slug, family_id, name_scientific, name_de, description, updated_at)
            values ('00000000-0000-4000-8000-000000000002', 'malus-domestica', ${family}, 'Malus domestica',
              'Kulturapfel', ${'Ein Baum. '.repeat(400)}, '2024-02-29 23:59:59.123+01')`,
      );
      await before.db.execute(
        sql`insert into cultivars (slug, species_id, name) values ('boskoop', '00000000-0000-4000-8000-000000000002', 'Boskoop')`,
      );
      const state = () =>
        rows<Record<string, string>>(
          before,
          sql`select s.xmin::text as species_xmin, c.xmin::text as cultivar_xmin, s.json_text as species,
                c.json_text as cultivar, s.search::text as search,
                (select string_agg(word, ' ' order by word) from name_words) as words
              from species s, cultivars c`,
        );
      const [old] = await state();
      await migrate(before);
      const [now] = await state();
      expect(now?.species_xmin).not.toBe(old?.species_xmin);
      expect(now?.cultivar_xmin).not.toBe(old?.cultivar_xmin);
      expect({ ...now, species_xmin: 0, cultivar_xmin: 0, species: '' }).toEqual({
        ...old,
        species_xmin: 0,
        cultivar_xmin: 0,
        species: '',
      });
      // A later migration added the planner fields: the species' text is the same record with them,
      // unknown, in their declared place.
      const species = JSON.parse(now?.species ?? '');
      expect(species).toEqual({
        ...JSON.parse(old?.species ?? ''),
        ...Object.fromEntries(PLANNER.map((f) => [f, null])),
      });
      const keys = Object.keys(species);
      expect(keys.indexOf('legal_status')).toBe(keys.indexOf('mammal_count') + 1);
      expect(species.updated_at).toBe('2024-02-29T22:59:59.123Z');
    } finally {
      await before.close();
    }
  }, 120_000);
});
