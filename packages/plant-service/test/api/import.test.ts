/**
 * Import: upsert by slug (links by cultivar + supplier, companions by their unordered
 * pair), one transaction, references into the database, and on bad input every problem listed
 * and nothing changed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/dataset/import.js';
import { formatProblem, InvalidDataset } from '../../src/dataset/problems.js';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  // Import writes beside the HTTP API; in a server, its NOTIFY clears the response cache (see
  // import-cli.test.ts). Here the app's own cache is off, so reads show the database as it is.
  t = await createTestApp({ RESPONSE_CACHE_MB: '0' });
  dir = await mkdtemp(path.join(tmpdir(), 'import-test-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const jsonl = (...records: object[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Writes the files into a new directory under the test's temp dir and returns its path. */
async function dataset(files: Record<string, string>): Promise<string> {
  const base = await mkdtemp(path.join(dir, 'set-'));
  await mkdir(base, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(base, name), text);
  return base;
}

const getJson = async (url: string) => {
  const res = await t.app.inject({ url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const dump = async () => (await t.app.inject({ url: '/api/v1/export' })).body;

async function refused(input: string): Promise<string[]> {
  const error = await importDataset(t.database, [input]).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidDataset);
  return (error as InvalidDataset).problems.map((p) => formatProblem(p).replace(`${input}/`, ''));
}

describe('import', () => {
  it('loads the starter dataset into an empty database, and the API serves it', async () => {
    const report = await importDataset(t.database, [STARTER_DATA_DIR]);
    expect(report.family).toEqual({ inserted: 96, updated: 0, unchanged: 0 });
    expect(report.companion.inserted).toBeGreaterThanOrEqual(200);
    expect((await getJson('/api/v1/families?per_page=1')).total).toBe(report.family.inserted);
    expect((await getJson('/api/v1/species?per_page=1')).total).toBe(report.species.inserted);
    expect((await getJson('/api/v1/cultivars?per_page=1')).total).toBe(report.cultivar.inserted);
    expect(await getJson('/api/v1/companions')).toHaveLength(report.companion.inserted);

    const apple = await getJson('/api/v1/species/malus-domestica');
    const rosaceae = await getJson('/api/v1/families/rosaceae');
    expect(apple.family_id).toBe(rosaceae.id);
    const search = await getJson('/api/v1/search?q=malus%20domestica');
    expect(search.map((r: { slug: string }) => r.slug)).toContain('malus-domestica');
  });

  it('upserts by slug: an unchanged record is not written; a changed one replaces the stored one', async () => {
    const before = await getJson('/api/v1/species/allium-cepa');
    const again = await importDataset(t.database, [STARTER_DATA_DIR]);
    expect(again.species).toEqual({ inserted: 0, updated: 0, unchanged: again.species.unchanged });
    expect((await getJson('/api/v1/species/allium-cepa')).updated_at).toBe(before.updated_at);

    // The image endpoints own primary_image_key: import leaves it alone.
    await t.database.db.execute(
      sql`update species set primary_image_key = 'species/x/onion.jpg' where slug = 'allium-cepa'`,
    );
    const changed = await dataset({
      'species.jsonl': jsonl({
        slug: 'allium-cepa',
        family: 'amaryllidaceae',
        name_scientific: 'Allium cepa',
        name_en: 'Onion',
        nectar_value: 3,
      }),
      'families.jsonl': jsonl({ slug: 'amaryllidaceae-test', name_scientific: 'Amaryllidaceae test' }),
    });
    const report = await importDataset(t.database, [changed]);
    expect(report.species).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect(report.family).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    const after = await getJson('/api/v1/species/allium-cepa');
    expect(after).toMatchObject({ id: before.id, name_en: 'Onion', nectar_value: 3, name_de: null });
    expect(after.description_de).toBeNull();
    expect(after.primary_image_key).toBe('species/x/onion.jpg');
    expect(after.created_at).toBe(before.created_at);
    expect(after.updated_at).not.toBe(before.updated_at);
  });

  it('resolves references into the database, and upserts links and companion pairs in either order', async () => {
    const cookie = await t.cookie();
    const make = fixtures(t, cookie);
    const family = await make.family('Importaceae');
    const supplierBefore = await getJson('/api/v1/suppliers/bingenheimer-saatgut-ag');
    const set = await dataset({
      'species.jsonl': jsonl(
        { slug: 'importus-primus', family: family.slug, name_scientific: 'Importus primus' },
        { slug: 'importus-secundus', family: family.slug, name_scientific: 'Importus secundus' },
      ),
      'cultivars.jsonl': jsonl({
        slug: 'importus-primus-alpha',
        species: 'importus-primus',
        name: 'Alpha',
        rootstock_species: 'malus-domestica',
      }),
      'cultivar-suppliers.jsonl': jsonl({
        cultivar: 'importus-primus-alpha',
        supplier: 'bingenheimer-saatgut-ag',
        price_eur: 3.5,
        last_checked_at: '2025-03-01T12:00:00Z',
      }),
      'companions.jsonl': jsonl({
        species_a: 'importus-primus',
        species_b: 'importus-secundus',
        relationship: 'beneficial',
      }),
    });
    expect((await importDataset(t.database, [set])).cultivar_supplier.inserted).toBe(1);

    const cultivar = await getJson('/api/v1/cultivars/importus-primus-alpha');
    expect(cultivar).toMatchObject({ is_organic: false, perennial: false });
    expect(cultivar.rootstock_species_id).toBe((await getJson('/api/v1/species/malus-domestica')).id);
    const links = await getJson('/api/v1/cultivars/importus-primus-alpha/suppliers');
    expect(links).toMatchObject([{ supplier_id: supplierBefore.id, price_eur: 3.5 }]);
    expect(links[0].last_checked_at).toBe('2025-03-01T12:00:00.000Z');

    // The same link and the same pair, reversed: updated, not added.
    const update = await dataset({
      'cultivar-suppliers.jsonl': jsonl({
        cultivar: 'importus-primus-alpha',
        supplier: 'bingenheimer-saatgut-ag',
        price_eur: 4,
      }),
      'companions.jsonl': jsonl({
        species_a: 'importus-secundus',
        species_b: 'importus-primus',
        relationship: 'antagonistic',
        evidence: 'documented',
        mechanism: 'Made up for a test.',
      }),
    });
    const report = await importDataset(t.database, [update]);
    expect(report.cultivar_supplier).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect(report.companion).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    expect(await getJson('/api/v1/cultivars/importus-primus-alpha/suppliers')).toMatchObject([
      { id: links[0].id, price_eur: 4, last_checked_at: null },
    ]);
    const pair = await getJson('/api/v1/species/importus-primus/companions');
    expect(pair).toHaveLength(1);
    expect(pair[0]).toMatchObject({
      relationship: 'antagonistic',
      evidence: 'documented',
      mechanism: 'Made up for a test.',
    });
  });

  it('refuses bad input with every problem, its file, line and field, and changes nothing', async () => {
    const before = await dump();
    const set = await dataset({
      'families.jsonl': jsonl(
        { slug: 'newaceae', name_scientific: 'Newaceae' },
        { slug: 'rosaceae', name_scientific: 'Rosaceae', name_de: 'Rosengewächse (changed)' },
      ),
      'species.jsonl': jsonl(
        { slug: 'newus-planta', family: 'newaceae', name_scientific: 'Newus planta', edibility_rating: 9 },
        {
          slug: 'malus-domestica',
          family: 'rosaceae',
          name_scientific: 'Malus domestica',
          plant_layer: 'tree',
        },
      ),
      'cultivars.csv': 'slug,species,name,harvesting_months\nnewus-planta-x,newus-planta,X,"[7,13]"\n',
      'companions.jsonl': jsonl(
        { species_a: 'newus-planta', species_b: 'daucus-carota', relationship: 'beneficial' },
        { species_a: 'newus-planta', species_b: 'nowhere-to-be-found', relationship: 'beneficial' },
      ),
    });
    expect(await refused(set)).toEqual([
      'species.jsonl:1: edibility_rating: must be <= 5',
      'species.jsonl:2: plant_layer: must be one of: canopy, sub_canopy, shrub, herb, ground_cover, climber, root, aquatic',
      'cultivars.csv:2: harvesting_months.1: must be <= 12',
      "companions.jsonl:2: species_b: no species 'nowhere-to-be-found' in the input or the database",
    ]);
    expect(await dump()).toBe(before);
    expect((await t.app.inject({ url: '/api/v1/families/newaceae' })).statusCode).toBe(404);
  });
});
