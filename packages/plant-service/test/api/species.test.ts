import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeciesSchema } from '../../src/schema/species.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let admin: string;
let make: ReturnType<typeof fixtures>;
let fabaceae: { id: string; slug: string };
let rosaceae: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  make = fixtures(t, writer);
  fabaceae = await make.family('Fabaceae');
  rosaceae = await make.family('Rosaceae');
  await make.species(fabaceae.id, 'Trifolium repens', {
    name_en: 'White clover',
    plant_layer: 'ground_cover',
    nitrogen_fixer: true,
    nectar_value: 3,
    wild_bee_count: 40,
    drought_tolerance: 'medium',
    native_status: 'native',
  });
  await make.species(fabaceae.id, 'Robinia pseudoacacia', {
    plant_layer: 'canopy',
    nitrogen_fixer: true,
    nectar_value: 4,
    wild_bee_count: 10,
    drought_tolerance: 'high',
    native_status: 'neophyte',
  });
  await make.species(rosaceae.id, 'Malus domestica', {
    plant_layer: 'sub_canopy',
    nitrogen_fixer: false,
    nectar_value: 3,
    wild_bee_count: 60,
    native_status: 'archaeophyte',
  });
  await make.species(rosaceae.id, 'Fragaria vesca', {
    plant_layer: 'ground_cover',
    dynamic_accumulator: true,
    nectar_value: 1,
    native_status: 'native',
  });
});
afterAll(() => t.close());

const post = (payload: object, cookie = writer) =>
  t.app.inject({ method: 'POST', url: '/api/v1/species', headers: { cookie }, payload });
const list = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/species?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { name_scientific: string }[]; total: number; page: number; per_page: number };
};
const names = async (query: string) => (await list(query)).data.map((s) => s.name_scientific);

describe('species records', () => {
  it('returns every species field, null when unknown, with exact JSON types', async () => {
    const res = await post({
      family_id: fabaceae.id,
      name_scientific: 'Vicia faba',
      name_de: 'Ackerbohne',
      ph_min: 6.5,
      edibility_rating: 4,
      nitrogen_fixer: true,
      guild_role: ['nitrogen_fixer', 'food'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(Object.keys(s).sort()).toEqual(Object.keys(SpeciesSchema.properties).sort());
    // 6 identity fields (id, slug, family_id, name_scientific and the timestamps), 81 attributes
    // and 13 planner fields.
    expect(Object.keys(s)).toHaveLength(100);
    expect(s).toMatchObject({
      slug: 'vicia-faba',
      family_id: fabaceae.id,
      ph_min: 6.5,
      edibility_rating: 4,
      nitrogen_fixer: true,
      guild_role: ['nitrogen_fixer', 'food'],
      ph_max: null,
      dynamic_accumulator: null,
      soil_texture_preference: null,
      nitrogen_ppm: null,
      primary_image_key: null,
    });
  });

  it('filters by family slug, layer, booleans, tolerance, status, nectar and bees (AND)', async () => {
    expect(await names('family=fabaceae')).toEqual([
      'Robinia pseudoacacia',
      'Trifolium repens',
      'Vicia faba',
    ]);
    expect(await names('plant_layer=ground_cover')).toEqual(['Fragaria vesca', 'Trifolium repens']);
    expect(await names('nitrogen_fixer=true&family=fabaceae&plant_layer=canopy')).toEqual([
      'Robinia pseudoacacia',
    ]);
    expect(await names('nitrogen_fixer=false')).toEqual(['Malus domestica']);
    expect(await names('dynamic_accumulator=true')).toEqual(['Fragaria vesca']);
    expect(await names('drought_tolerance=high')).toEqual(['Robinia pseudoacacia']);
    expect(await names('native_status=native')).toEqual(['Fragaria vesca', 'Trifolium repens']);
    expect(await names('min_nectar=3')).toEqual([
      'Malus domestica',
      'Robinia pseudoacacia',
      'Trifolium repens',
    ]);
    expect(await names('min_bees=40')).toEqual(['Malus domestica', 'Trifolium repens']);
    expect(await names('search=clover')).toEqual(['Trifolium repens']);
  });

  it('gives an empty page for an unknown family slug', async () => {
    expect(await list('family=no-such-family')).toMatchObject({ data: [], total: 0, page: 1, per_page: 25 });
  });

  it('echoes paging and counts the total across pages', async () => {
    const page = await list('per_page=2&page=2');
    expect(page).toMatchObject({ total: 5, page: 2, per_page: 2 });
    expect(page.data.map((s) => s.name_scientific)).toEqual(['Robinia pseudoacacia', 'Trifolium repens']);
    expect((await list('per_page=2&page=9')).data).toEqual([]);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=2.5', 'per_page'],
    ['min_nectar=5', 'min_nectar'],
    ['min_bees=-1', 'min_bees'],
    ['nitrogen_fixer=perhaps', 'nitrogen_fixer'],
    ['plant_layer=tree', 'plant_layer'],
    ['colour=red', 'colour'],
  ])('rejects %s with a 400 naming %s', async (query, param) => {
    const res = await t.app.inject({ url: `/api/v1/species?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: param, in: 'query' });
    expect(res.json().error).toContain(param);
  });

  it('refuses a plant_layer outside the vocabulary and lists the allowed values', async () => {
    const res = await post({ family_id: fabaceae.id, name_scientific: 'X y', plant_layer: 'tree' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^plant_layer: must be one of: canopy, sub_canopy, shrub/);
  });
});

describe('species validation', () => {
  const base = () => ({ family_id: fabaceae.id, name_scientific: 'Lathyrus tuberosus' });

  it.each([
    [{ colour: 'red' }, 'colour', 'is not a known field'],
    [{ nitrogen_ppm: 3 }, 'nitrogen_ppm', 'is not a known field'],
    [{ primary_image_key: 'x' }, 'primary_image_key', 'is not a known field'],
    [{ ph_min: 15 }, 'ph_min', '<= 14'],
    [{ ph_max: -0.5 }, 'ph_max', '>= 0'],
    [{ wild_bee_count: -3 }, 'wild_bee_count', '>= 0'],
    [{ nectar_value: 2.5 }, 'nectar_value', 'integer'],
    [{ nitrogen_fixer: 'yes' }, 'nitrogen_fixer', 'boolean'],
    [{ edibility_rating: '3' }, 'edibility_rating', 'integer'],
    [{ guild_role: 'food' }, 'guild_role', 'array'],
    [{ guild_role: ['food', 3] }, 'guild_role.1', 'string'],
    [{ family_id: 'not-a-uuid' }, 'family_id', 'uuid'],
    [{ name_scientific: '' }, 'name_scientific', ''],
    [{ name_scientific: '   ' }, 'name_scientific', ''],
  ])('rejects %j naming %s', async (patch, field, message) => {
    const res = await post({ ...base(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    expect(res.json().error).toContain(field);
    expect(res.json().error).toContain(message);
  });

  it('rejects a missing required field', async () => {
    const res = await post({ name_scientific: 'Lathyrus tuberosus' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'family_id: is required', field: 'family_id' });
  });

  it('rejects an unknown family with a 400 naming family_id, and writes nothing', async () => {
    const before = (await list('per_page=100')).total;
    const res = await post({
      family_id: '00000000-0000-4000-8000-000000000000',
      name_scientific: 'Orphanus',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('family_id');
    expect((await list('per_page=100')).total).toBe(before);
  });

  it('rejects a non-object or non-JSON body', async () => {
    const array = await post([]);
    expect(array.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/species',
      headers: { cookie: writer, 'content-type': 'application/json' },
      payload: '{"family_id": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/JSON/);
  });
});

describe('species writes', () => {
  it('needs a session (401) and moves a species to another family with PUT', async () => {
    const s = await make.species(fabaceae.id, 'Lupinus polyphyllus');
    expect((await post({ ...{ family_id: fabaceae.id, name_scientific: 'X' } }, '')).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${s.slug}`,
      headers: { cookie: writer },
      payload: { family_id: rosaceae.id, name_en: 'Garden lupin' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      family_id: rosaceae.id,
      name_en: 'Garden lupin',
      slug: 'lupinus-polyphyllus',
    });
    const badFamily = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${s.slug}`,
      headers: { cookie: writer },
      payload: { family_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(badFamily.statusCode).toBe(400);
  });

  it('refuses to delete a species with cultivars (409), and deleting one removes its companions', async () => {
    const a = await make.species(rosaceae.id, 'Prunus avium');
    const b = await make.species(rosaceae.id, 'Prunus cerasus');
    await make.cultivar(a.id, 'Kordia');
    const rel = await make.companion(b.id, a.id);

    const blocked = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/species/${a.slug}`,
      headers: { cookie: admin },
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ cultivar_count: 1 });

    const notAdmin = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/species/${b.slug}`,
      headers: { cookie: writer },
    });
    expect(notAdmin.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/species/${b.slug}`,
      headers: { cookie: admin },
    });
    expect(ok.statusCode).toBe(200);
    const left = await t.app.inject({ url: `/api/v1/species/${a.slug}/companions` });
    expect(left.json().map((c: { id: string }) => c.id)).not.toContain(rel.id);
  });

  it('answers 404 for the companions of an unknown species', async () => {
    expect((await t.app.inject({ url: '/api/v1/species/nope/companions' })).statusCode).toBe(404);
  });
});
