/**
 * The planner fields through bulk import and export: the data files' shapes are read, kept with
 * their items' members in the declared order (so the API answers them exactly as its writes do),
 * an unchanged re-import writes nothing, and a CSV export (lists of objects as JSON text in their
 * cell) imports again to the same records.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/dataset/import.js';
import { exportToDirectory } from '../../src/dataset/write.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  t = await createTestApp({ RESPONSE_CACHE_MB: '0' });
  dir = await mkdtemp(path.join(tmpdir(), 'planner-import-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

// As a data file may give them: members in any order, optional ones left out.
const RECORD = {
  slug: 'heracleum-mantegazzianum',
  family: 'apiaceae',
  name_scientific: 'Heracleum mantegazzianum',
  legal_status: [
    {
      source: 'https://eur-lex.europa.eu/eli/reg_impl/2016/1141/oj',
      kind: 'union_list_invasive',
      jurisdiction: 'EU',
    },
  ],
  hazards: [
    {
      text_de: 'Der Saft verursacht im Sonnenlicht schwere Verbrennungen.',
      kind: 'phototoxic',
      source: 'https://toxinfo.ch/',
      text_en: 'The sap causes severe burns in sunlight.',
      parts: ['sap'],
    },
  ],
  edible_parts: [{ caution_en: null, part: 'seed' }],
  life_cycle: 'perennial',
  light: ['full_sun', 'partial_shade'],
  flowering_months: [6, 7],
  height_m: 5,
};

async function files(base: string, species: object[]): Promise<string> {
  await mkdir(base, { recursive: true });
  await writeFile(path.join(base, 'families.jsonl'), '{"slug":"apiaceae","name_scientific":"Apiaceae"}\n');
  await writeFile(path.join(base, 'species.jsonl'), species.map((s) => `${JSON.stringify(s)}\n`).join(''));
  return base;
}

describe('planner fields in the dataset', () => {
  it('import reads them, the API answers them in declared member order, and an unchanged re-import writes nothing', async () => {
    const input = await files(path.join(dir, 'in'), [RECORD]);
    expect((await importDataset(t.database, [input])).species).toEqual({
      inserted: 1,
      updated: 0,
      unchanged: 0,
    });
    const read = await t.app.inject({ url: '/api/v1/species/heracleum-mantegazzianum' });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain(
      '"legal_status":[{"jurisdiction":"EU","kind":"union_list_invasive","source":"https://eur-lex.europa.eu/eli/reg_impl/2016/1141/oj"}]',
    );
    expect(read.body).toContain(
      '"hazards":[{"kind":"phototoxic","parts":["sap"],"text_en":"The sap causes severe burns in sunlight.",' +
        '"text_de":"Der Saft verursacht im Sonnenlicht schwere Verbrennungen.","source":"https://toxinfo.ch/"}]',
    );
    expect(read.body).toContain('"edible_parts":[{"part":"seed","caution_en":null}]');
    // A write of the same values answers the same text.
    const cookie = await t.cookie();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/species/heracleum-mantegazzianum',
      headers: { cookie },
      payload: {
        legal_status: RECORD.legal_status,
        hazards: RECORD.hazards,
        edible_parts: RECORD.edible_parts,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const withoutTimes = (text: string) => text.replace(/"updated_at":"[^"]+"/, '');
    expect(withoutTimes(put.body)).toBe(withoutTimes(read.body));

    expect((await importDataset(t.database, [input])).species).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });
    const changed = await files(path.join(dir, 'changed'), [{ ...RECORD, legal_status: [] }]);
    expect((await importDataset(t.database, [changed])).species).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    expect((await importDataset(t.database, [input])).species).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
  });

  it('a CSV export writes lists of objects as JSON text in their cell, and imports again to the same records', async () => {
    const csvDir = path.join(dir, 'csv');
    await exportToDirectory(t.database, csvDir, 'csv');
    const rows = parse(await readFile(path.join(csvDir, 'species.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    const row = rows.find((r) => r.slug === 'heracleum-mantegazzianum');
    expect(JSON.parse(row?.hazards ?? '')).toEqual([
      {
        kind: 'phototoxic',
        parts: ['sap'],
        text_en: 'The sap causes severe burns in sunlight.',
        text_de: 'Der Saft verursacht im Sonnenlicht schwere Verbrennungen.',
        source: 'https://toxinfo.ch/',
      },
    ]);
    expect(row?.light).toBe('["full_sun","partial_shade"]');
    expect(row?.width_m).toBe('');

    const jsonlBefore = path.join(dir, 'jsonl-before');
    await exportToDirectory(t.database, jsonlBefore, 'jsonl');
    // The CSV, imported again, changes nothing.
    expect((await importDataset(t.database, [csvDir])).species.updated).toBe(0);
    const jsonlAfter = path.join(dir, 'jsonl-after');
    await exportToDirectory(t.database, jsonlAfter, 'jsonl');
    const exported = await readFile(path.join(jsonlAfter, 'species.jsonl'), 'utf8');
    expect(exported).toBe(await readFile(path.join(jsonlBefore, 'species.jsonl'), 'utf8'));
    expect(exported).toContain('"legal_status":[{"jurisdiction":"EU","kind":"union_list_invasive"');
  });
});
