import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CultivarSchema } from '../../src/schema/cultivars.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let admin: string;
let make: ReturnType<typeof fixtures>;
let tomato: { id: string; slug: string };
let carrot: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  make = fixtures(t, writer);
  const solanaceae = await make.family('Solanaceae');
  const apiaceae = await make.family('Apiaceae');
  tomato = await make.species(solanaceae.id, 'Solanum lycopersicum', { name_en: 'Tomato' });
  carrot = await make.species(apiaceae.id, 'Daucus carota', { name_de: 'Möhre' });
});
afterAll(() => t.close());

const inject = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = writer) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

describe('cultivars', () => {
  it('slugs from species slug + name, returns every field, and keeps the slug when renamed', async () => {
    const res = await inject('POST', '/api/v1/cultivars', {
      species_id: tomato.id,
      name: 'Ochsenherz',
      is_organic: true,
      indoor_sowing_months: [3, 4],
      harvesting_weeks: [30, 31, 52],
      plant_spacing_cm: 60,
      days_to_germination: 8,
    });
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json();
    expect(Object.keys(c).sort()).toEqual(Object.keys(CultivarSchema.properties).sort());
    expect(c).toMatchObject({
      slug: 'solanum-lycopersicum-ochsenherz',
      is_organic: true,
      perennial: false,
      indoor_sowing_months: [3, 4],
      harvesting_weeks: [30, 31, 52],
      plant_spacing_cm: 60,
      direct_sowing_months: null,
      rootstock_species_id: null,
    });
    const renamed = await inject('PUT', `/api/v1/cultivars/${c.slug}`, {
      name: 'Coeur de Boeuf',
      perennial: true,
    });
    expect(renamed.json()).toMatchObject({
      slug: c.slug,
      name: 'Coeur de Boeuf',
      perennial: true,
      is_organic: true,
    });
  });

  it.each([
    [{ indoor_sowing_months: [0] }, 'indoor_sowing_months.0'],
    [{ harvesting_months: [4, 13] }, 'harvesting_months.1'],
    [{ direct_sowing_weeks: [53] }, 'direct_sowing_weeks.0'],
    [{ transplanting_weeks: [1, 1] }, 'transplanting_weeks'],
    [{ days_to_germination: -1 }, 'days_to_germination'],
    [{ growing_time_days: 1.5 }, 'growing_time_days'],
    [{ shelf_life_days: 10 }, 'shelf_life_days'],
    [{ is_organic: null }, 'is_organic'],
    [{ species_id: 'x' }, 'species_id'],
  ])('rejects %j naming %s', async (patch, field) => {
    const res = await inject('POST', '/api/v1/cultivars', { species_id: tomato.id, name: 'Bad', ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('rejects an unknown species with 400 naming species_id', async () => {
    const res = await inject('POST', '/api/v1/cultivars', {
      species_id: '00000000-0000-4000-8000-000000000000',
      name: 'Ghost',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('species_id');
  });

  it('filters by species slug (unknown slug: empty page) and orders by name', async () => {
    await make.cultivar(carrot.id, 'Rodelika');
    await make.cultivar(carrot.id, 'Nantaise 2');
    const res = await t.app.inject({ url: `/api/v1/cultivars?species=${carrot.slug}` });
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual(['Nantaise 2', 'Rodelika']);
    expect(res.json().total).toBe(2);
    const none = await t.app.inject({ url: '/api/v1/cultivars?species=nope' });
    expect(none.json()).toMatchObject({ data: [], total: 0 });
  });

  it('manages supplier links: add, list, duplicate 409, unknown supplier 400, delete by the two uuids', async () => {
    const c = await make.cultivar(carrot.id, 'Robila');
    const s = await make.supplier('Bingenheimer Saatgut AG', {
      is_organic: true,
      is_biodynamic: true,
      country: 'DE',
    });
    const url = `/api/v1/cultivars/${c.slug}/suppliers`;
    const added = await inject('POST', url, {
      supplier_id: s.id,
      price_eur: 3.2,
      pack_size: 5,
      pack_unit: 'g',
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({
      cultivar_id: c.id,
      supplier_id: s.id,
      price_eur: 3.2,
      pack_size: 5,
      pack_unit: 'g',
      article_number: null,
      last_checked_at: null,
    });
    expect((await t.app.inject({ url })).json()).toHaveLength(1);
    expect((await inject('POST', url, { supplier_id: s.id })).statusCode).toBe(409);
    const unknown = await inject('POST', url, { supplier_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('supplier_id');
    expect((await inject('POST', '/api/v1/cultivars/nope/suppliers', { supplier_id: s.id })).statusCode).toBe(
      404,
    );
    expect((await inject('POST', url, { supplier_id: s.id, price_eur: -1 })).statusCode).toBe(400);

    const del = await inject('DELETE', `/api/v1/cultivars/${c.id}/suppliers/${s.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ deleted: true });
    expect((await t.app.inject({ url })).json()).toEqual([]);
    expect((await inject('DELETE', `/api/v1/cultivars/${c.id}/suppliers/${s.id}`)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/v1/cultivars/${c.slug}/suppliers/${s.id}`)).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/cultivars/nope/suppliers' })).statusCode).toBe(404);
  });

  it('deleting a cultivar (admin) removes its supplier links; deleting a supplier removes its links', async () => {
    const c = await make.cultivar(tomato.id, 'Harzfeuer');
    const s1 = await make.supplier('Dreschflegel');
    const s2 = await make.supplier('Culinaris');
    await inject('POST', `/api/v1/cultivars/${c.id}/suppliers`, { supplier_id: s1.id });
    await inject('POST', `/api/v1/cultivars/${c.id}/suppliers`, { supplier_id: s2.id });

    expect((await inject('DELETE', `/api/v1/suppliers/${s2.slug}`, undefined, writer)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/v1/suppliers/${s2.slug}`, undefined, admin)).statusCode).toBe(200);
    const links = (await t.app.inject({ url: `/api/v1/cultivars/${c.id}/suppliers` })).json();
    expect(links.map((l: { supplier_id: string }) => l.supplier_id)).toEqual([s1.id]);

    expect((await inject('DELETE', `/api/v1/cultivars/${c.slug}`, undefined, writer)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/v1/cultivars/${c.slug}`, undefined, admin)).statusCode).toBe(200);
    // s1 survives, without links.
    expect((await t.app.inject({ url: `/api/v1/suppliers/${s1.slug}` })).statusCode).toBe(200);
  });
});

describe('suppliers', () => {
  it('lists all suppliers (not paginated) by name, with flags defaulting to false', async () => {
    await make.supplier('Arche Noah', { country: 'AT', url: 'https://www.arche-noah.at' });
    const res = await t.app.inject({ url: '/api/v1/suppliers' });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    const names = list.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    expect(list.find((s: { name: string }) => s.name === 'Arche Noah')).toMatchObject({
      slug: 'arche-noah',
      is_organic: false,
      is_biodynamic: false,
      country: 'AT',
    });
    expect((await t.app.inject({ url: '/api/v1/suppliers?page=2' })).statusCode).toBe(400);
  });

  it('rejects a malformed url and updates with PUT', async () => {
    const bad = await inject('POST', '/api/v1/suppliers', { name: 'X', url: 'not a url' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('url');
    const s = await make.supplier('Sativa Rheinau AG');
    const res = await inject('PUT', `/api/v1/suppliers/${s.id}`, { is_biodynamic: true, country: 'CH' });
    expect(res.json()).toMatchObject({ slug: 'sativa-rheinau-ag', is_biodynamic: true, country: 'CH' });
  });
});
