/** The planner's species filters: hardiness zones (their form and the filter's edges) and facet counts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let make: ReturnType<typeof fixtures>;
let fabaceae: { id: string; slug: string };
let rosaceae: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  make = fixtures(t, writer);
  fabaceae = await make.family('Fabaceae');
  rosaceae = await make.family('Rosaceae');
  // Ranges chosen around zone 7's two halves.
  await make.species(fabaceae.id, 'Alnus a-only', {
    hardiness_zone_usda: '3-7a',
    plant_layer: 'canopy',
    nitrogen_fixer: true,
    native_status: 'native',
  });
  await make.species(fabaceae.id, 'Betula b-only', {
    hardiness_zone_usda: '7b-9',
    plant_layer: 'canopy',
    nitrogen_fixer: false,
    native_status: 'native',
  });
  await make.species(rosaceae.id, 'Crataegus whole', {
    hardiness_zone_usda: '4-8',
    plant_layer: 'shrub',
    drought_tolerance: 'high',
  });
  await make.species(rosaceae.id, 'Dianthus exact', {
    hardiness_zone_usda: '7',
    plant_layer: 'herb',
    native_status: 'neophyte',
  });
  await make.species(rosaceae.id, 'Erica unknown', { plant_layer: 'shrub' });
  await make.species(rosaceae.id, 'Fragaria halves', {
    hardiness_zone_usda: '6b-7a',
    plant_layer: 'ground_cover',
  });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ url });
const names = async (query: string) => {
  const res = await get(`/api/v1/species?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { name_scientific: string }[] }).data.map((s) => s.name_scientific);
};

describe('hardiness_zone_usda form', () => {
  it.each(['1', '13', '7a', '7b', '4-8', '4b-8a', '6b-7a', '7-7', '10a-13b'])('accepts %s', async (zone) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/species',
      headers: { cookie: writer },
      payload: { family_id: rosaceae.id, name_scientific: `Accepted ${zone}`, hardiness_zone_usda: zone },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().hardiness_zone_usda).toBe(zone);
  });

  it.each(['0', '14', '7c', '4 - 8', '4–8', 'zone 7', '8-4', '7b-7a', '4-8-9', '-7', '7-', 'H4'])(
    'rejects %s with a 400 naming the field, on create, update and never half-written',
    async (zone) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/species',
        headers: { cookie: writer },
        payload: { family_id: rosaceae.id, name_scientific: `Rejected ${zone}`, hardiness_zone_usda: zone },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^hardiness_zone_usda: /);
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/species/crataegus-whole',
        headers: { cookie: writer },
        payload: { hardiness_zone_usda: zone },
      });
      expect(put.statusCode, put.body).toBe(400);
      expect(put.json().error).toMatch(/^hardiness_zone_usda: /);
      expect((await get('/api/v1/species/crataegus-whole')).json().hardiness_zone_usda).toBe('4-8');
    },
  );

  it('does not show the derived columns in records', async () => {
    const s = (await get('/api/v1/species/crataegus-whole')).json();
    expect(s).not.toHaveProperty('hardiness_min');
    expect(s).not.toHaveProperty('guild_score');
  });
});

describe('?hardiness_zone', () => {
  it('matches species hardy in every part of the zone; 7a and 7b are edges', async () => {
    const inSet = (list: string[]) => list.filter((n) => !n.startsWith('Accepted'));
    expect(inSet(await names('hardiness_zone=7'))).toEqual(['Crataegus whole', 'Dianthus exact']);
    expect(inSet(await names('hardiness_zone=7a'))).toEqual([
      'Alnus a-only',
      'Crataegus whole',
      'Dianthus exact',
      'Fragaria halves',
    ]);
    expect(inSet(await names('hardiness_zone=7b'))).toEqual([
      'Betula b-only',
      'Crataegus whole',
      'Dianthus exact',
    ]);
    expect(inSet(await names('hardiness_zone=6b'))).toEqual([
      'Alnus a-only',
      'Crataegus whole',
      'Fragaria halves',
    ]);
  });

  it('never matches a species without a zone', async () => {
    for (const zone of ['1', '5', '7', '13'])
      expect(await names(`hardiness_zone=${zone}`)).not.toContain('Erica unknown');
  });

  it('follows an update of the zone at once', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/species/erica-unknown',
      headers: { cookie: writer },
      payload: { hardiness_zone_usda: '5b-7' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await names('hardiness_zone=7')).toContain('Erica unknown');
    expect(await names('hardiness_zone=5a')).not.toContain('Erica unknown');
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/species/erica-unknown',
      headers: { cookie: writer },
      payload: { hardiness_zone_usda: null },
    });
    expect(await names('hardiness_zone=7')).not.toContain('Erica unknown');
  });

  it('combines with the other filters', async () => {
    expect(await names('hardiness_zone=7a&family=fabaceae')).toEqual(['Alnus a-only']);
    expect(await names('hardiness_zone=7b&nitrogen_fixer=false&native_status=native')).toEqual([
      'Betula b-only',
    ]);
    expect(await names('hardiness_zone=7&plant_layer=herb&search=dianthus')).toEqual(['Dianthus exact']);
    expect(await names('hardiness_zone=7&drought_tolerance=high')).toEqual(['Crataegus whole']);
  });

  it.each(['0', '14', '7c', '7-8', 'seven', ''])(
    'rejects hardiness_zone=%s with a 400 naming it',
    async (zone) => {
      const res = await get(`/api/v1/species?hardiness_zone=${encodeURIComponent(zone)}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^hardiness_zone: /);
    },
  );
});

describe('?facets', () => {
  type Counts = Record<string, { value: string | boolean | null; count: number }[]>;
  const page = async (query: string) => {
    const res = await get(`/api/v1/species?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: unknown[]; total: number; facets?: Counts };
  };
  const all = 'plant_layer,family,native_status,drought_tolerance,nitrogen_fixer';

  it('leaves the envelope unchanged without facets', async () => {
    expect(Object.keys(await page('per_page=1')).sort()).toEqual(['data', 'page', 'per_page', 'total']);
  });

  it('counts every value over the whole filtered set, not the page; each facet adds up to the total', async () => {
    const p = await page(`family=rosaceae&per_page=1&facets=${all}`);
    expect(p.data).toHaveLength(1);
    expect(p.total).toBeGreaterThan(4);
    for (const name of all.split(',')) {
      const counts = p.facets?.[name] ?? [];
      expect(
        counts.reduce((sum, c) => sum + c.count, 0),
        name,
      ).toBe(p.total);
    }
    expect(p.facets?.family).toEqual([{ value: 'rosaceae', count: p.total }]);
    expect(p.facets?.plant_layer).toContainEqual({ value: 'shrub', count: 2 });
    expect(p.facets?.drought_tolerance).toContainEqual({ value: 'high', count: 1 });
    expect(p.facets?.nitrogen_fixer).toEqual([{ value: null, count: p.total }]);
  });

  it('follows the filters, including hardiness and search', async () => {
    const p = await page('hardiness_zone=7a&facets=family,nitrogen_fixer,plant_layer');
    const known = p.total;
    expect(p.facets?.family?.reduce((s, c) => s + c.count, 0)).toBe(known);
    expect(p.facets?.family).toContainEqual({ value: 'fabaceae', count: 1 });
    expect(p.facets?.nitrogen_fixer).toContainEqual({ value: true, count: 1 });
    const canopy = await page('plant_layer=canopy&facets=nitrogen_fixer,native_status');
    expect(canopy.facets).toEqual({
      nitrogen_fixer: [
        { value: false, count: 1 },
        { value: true, count: 1 },
      ],
      native_status: [{ value: 'native', count: 2 }],
    });
    const none = await page('search=nosuchword&facets=plant_layer');
    expect(none).toMatchObject({ total: 0, facets: { plant_layer: [] } });
    const nothing = await page('search=%21%21&facets=plant_layer');
    expect(nothing).toMatchObject({ total: 0, facets: { plant_layer: [] } });
  });

  it('orders values by count, highest first; unknown (null) is a value', async () => {
    const p = await page('family=rosaceae&facets=native_status');
    const counts = p.facets?.native_status ?? [];
    expect(counts[0]?.value).toBeNull();
    expect([...counts].sort((x, y) => y.count - x.count)).toEqual(counts);
  });

  it.each(['colour', 'plant_layer,colour', 'plant_layer,', ' '])(
    'rejects facets=%s with a 400 naming facets',
    async (f) => {
      const res = await get(`/api/v1/species?facets=${encodeURIComponent(f)}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^facets: /);
    },
  );
});
