/**
 * List pages and reads by ref answer the JSON text the database writes for each record from its
 * declared columns (rowJson); writes answer the record serialised from its row. Both must be the
 * same record: these tests compare the two for every record of the starter dataset, byte for byte,
 * and for records with awkward values.
 */
import { asc } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDataset } from '../../src/dataset/import.js';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { publicColumns } from '../../src/db/catalogue-repository.js';
import { cultivars, families, species, suppliers } from '../../src/db/tables.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let writer: string;

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  await importDataset(t.database, [STARTER_DATA_DIR]);
}, 120_000);
afterAll(() => t.close());

// Each with the column its list is ordered by (then the id).
const TABLES = [
  { path: 'families', table: families, by: families.name_scientific },
  { path: 'species', table: species, by: species.name_scientific },
  { path: 'cultivars', table: cultivars, by: cultivars.name },
  { path: 'suppliers', table: suppliers, by: suppliers.name },
] as const;

describe('records written by the database', () => {
  it('every starter record, paged through its list, is the text its row serialises to', async () => {
    for (const { path, table, by } of TABLES) {
      const columns = publicColumns(table);
      const rows = await t.database.db
        .select(columns)
        .from(table)
        .orderBy(asc(by as PgColumn), asc(table.id as PgColumn));
      expect(rows.length, path).toBeGreaterThan(5);
      const texts: string[] = [];
      if (path === 'suppliers') {
        const res = await t.app.inject({ url: '/api/v1/suppliers' });
        expect(res.body).toBe(`[${rows.map((row) => JSON.stringify(row)).join(',')}]`);
        continue;
      }
      for (let page = 1; texts.length < rows.length; page++) {
        const res = await t.app.inject({ url: `/api/v1/${path}?per_page=100&page=${page}` });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const data = res.json().data as unknown[];
        expect(data.length, `${path} page ${page}`).toBeGreaterThan(0);
        // Cut the envelope's data array out of the text as sent, record by record.
        texts.push(...data.map((record) => JSON.stringify(record)));
        expect(res.body.startsWith(`{"data":[${data.map((r) => JSON.stringify(r)).join(',')}],`)).toBe(true);
      }
      expect(texts, path).toEqual(rows.map((row) => JSON.stringify(row)));
    }
  }, 120_000);

  it('a list page holds the same texts, in the list order, in the page envelope', async () => {
    const res = await t.app.inject({ url: '/api/v1/species?per_page=100&page=2' });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(Object.keys(page)).toEqual(['data', 'total', 'page', 'per_page']);
    expect(page).toMatchObject({ page: 2, per_page: 100 });
    const rows = await t.database.db
      .select(publicColumns(species))
      .from(species)
      .orderBy(asc(species.name_scientific), asc(species.id))
      .limit(100)
      .offset(100);
    expect(page.total).toBe((await t.database.db.select({ id: species.id }).from(species)).length);
    expect(res.body).toBe(
      `{"data":[${rows.map((row) => JSON.stringify(row)).join(',')}],"total":${page.total},"page":2,"per_page":100}`,
    );

    const withFacets = await t.app.inject({ url: '/api/v1/species?plant_layer=shrub&facets=plant_layer' });
    const body = withFacets.json();
    expect(Object.keys(body)).toEqual(['data', 'total', 'page', 'per_page', 'facets']);
    expect(body.facets.plant_layer).toEqual([{ value: 'shrub', count: body.total }]);

    const empty = await t.app.inject({ url: '/api/v1/cultivars?search=%21%21' });
    expect(empty.body).toBe('{"data":[],"total":0,"page":1,"per_page":25}');
    const all = await t.app.inject({ url: '/api/v1/suppliers' });
    expect(all.body.startsWith('[{"id":')).toBe(true);
  });

  it('awkward values read back exactly as the write answered them', async () => {
    const family = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/families',
        headers: { cookie: writer },
        payload: {
          name_scientific: 'Quoteaceae',
          description: 'a "quote", a \\ backslash,\nnew line, tab\t, ü, 🌱',
        },
      })
    ).json();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/species',
      headers: { cookie: writer },
      payload: {
        name_scientific: 'Awkwardia valuata',
        family_id: family.id,
        ph_min: 0.1,
        ph_max: 13.999999999999998,
        min_temp: -0.000001,
        max_temp: 59.3,
        other_names: ['', 'zwei "Namen"', '</script>', 'x'.repeat(2000)],
        soil_texture_preference: [],
        description: '\u2028\u2029 line separators and \u0001 a control character',
      },
    });
    expect(created.statusCode).toBe(200);
    const read = await t.app.inject({ url: `/api/v1/species/${created.json().slug}` });
    expect(read.json()).toEqual(created.json());
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${created.json().id}`,
      headers: { cookie: writer },
      payload: { name_de: 'Sonderbar', ph_min: 1e-7 },
    });
    const again = await t.app.inject({ url: `/api/v1/species/${created.json().id.toUpperCase()}` });
    expect(again.json()).toEqual(updated.json());
    expect(again.json().ph_min).toBe(1e-7);
    // Microseconds in the database; both answers say the same millisecond.
    expect(again.json().updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const familyRead = await t.app.inject({ url: `/api/v1/families/${family.slug}` });
    expect(familyRead.json()).toEqual(family);
  });

  it('an unknown ref is still a 404 naming it', async () => {
    const res = await t.app.inject({ url: '/api/v1/species/no-such-species' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toContain('no-such-species');
  });
});
