/**
 * The migration that gives every catalogue record its kept response text, on a database an older
 * release wrote: every existing row gets the text its columns declare, the words of its names stay
 * as they were, and the triggers it paused work again afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicColumns, rowJson } from '../../src/db/catalogue-repository.js';
import { migrate } from '../../src/db/migrate.js';
import { cultivars, families, species, suppliers } from '../../src/db/tables.js';
import { databaseBefore } from '../helpers/earlier-migrations.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'json-text-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the response text migration', () => {
  // Runs the migrations on a fresh PGlite: over the default timeout on a busy machine.
  it('writes every existing record its text, and leaves the name words as they were', async () => {
    const database = await databaseBefore('record_json_text', dir);
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
    const words = () =>
      rows<{ word: string; entity_id: string }>(
        sql`select word, entity_id from name_words order by entity_type, entity_id, word`,
      );
    try {
      const family = '00000000-0000-4000-8000-000000000001';
      await database.db.execute(
        sql`insert into families (id, slug, name_scientific, name_de, description)
            values (${family}, 'rosaceae', 'Rosaceae', 'Rosengewächse', ${'a "quote", ü\nand a new line'})`,
      );
      await database.db.execute(
        sql`insert into species (id, slug, family_id, name_scientific, name_de, other_names, ph_min,
              nitrogen_fixer, plant_layer, hardiness_zone_usda, created_at)
            values ('00000000-0000-4000-8000-000000000002', 'malus-domestica', ${family}, 'Malus domestica',
              'Kulturapfel', array['Apfel', 'Apfelbaum'], 5.5, false, 'tree', '4-8',
              '2024-02-29 23:59:59.123456+01')`,
      );
      await database.db.execute(
        sql`insert into cultivars (slug, species_id, name, harvesting_months)
            values ('boskoop', '00000000-0000-4000-8000-000000000002', 'Boskoop', array[9, 10])`,
      );
      await database.db.execute(
        sql`insert into suppliers (slug, name, is_organic) values ('bingenheimer', 'Bingenheimer', true)`,
      );
      const wordsBefore = await words();
      expect(wordsBefore.length).toBeGreaterThan(5);

      await migrate(database);

      for (const table of [families, species, cultivars, suppliers]) {
        const [found] = await rows<{ n: number; stale: number }>(
          sql`select count(*)::int as n,
                count(*) filter (where ${table.json_text} is distinct from ${rowJson(publicColumns(table))})::int as stale
              from ${table}`,
        );
        expect(found).toEqual({ n: 1, stale: 0 });
      }
      const [malus] = await rows<{ json_text: string }>(sql`select json_text from species`);
      expect(JSON.parse(malus?.json_text ?? '')).toMatchObject({
        slug: 'malus-domestica',
        other_names: ['Apfel', 'Apfelbaum'],
        created_at: '2024-02-29T22:59:59.123Z',
      });
      expect(await words()).toEqual(wordsBefore);

      // The name words' triggers run again: a renamed species has its new words, and its text.
      await database.db.execute(sql`update species set name_de = 'Holzapfel' where slug = 'malus-domestica'`);
      expect((await words()).some((w) => w.word === 'holzapfel')).toBe(true);
      expect((await words()).some((w) => w.word === 'kulturapfel')).toBe(false);
      const [renamed] = await rows<{ json_text: string }>(sql`select json_text from species`);
      expect(JSON.parse(renamed?.json_text ?? '').name_de).toBe('Holzapfel');
    } finally {
      await database.close();
    }
  }, 120_000);
});
