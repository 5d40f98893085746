import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

// The response cache is off, so every total below comes from the database or the shared counts.
let t: TestApp;
let writer: string;
let admin: string;
let make: ReturnType<typeof fixtures>;
let family: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp({ RESPONSE_CACHE_MB: '0' });
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  make = fixtures(t, writer);
  family = await make.family('Asteraceae');
  for (const [name, layer] of [
    ['Achillea millefolium', 'herb'],
    ['Arnica montana', 'herb'],
    ['Calendula officinalis', 'herb'],
    ['Helianthus annuus', 'herb'],
    ['Tanacetum vulgare', 'shrub'],
  ] as const)
    await make.species(family.id, name, { plant_layer: layer, nectar_value: 3 });
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/species?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { name_scientific: string; slug: string }[]; total: number };
};

describe('list paging', () => {
  it('pages through the same order as one long page, deep pages included', async () => {
    const all = (await list(`family=${family.slug}&per_page=100`)).data.map((s) => s.name_scientific);
    const paged: string[] = [];
    for (let page = 1; page <= 3; page++)
      paged.push(
        ...(await list(`family=${family.slug}&per_page=2&page=${page}`)).data.map((s) => s.name_scientific),
      );
    expect(paged).toEqual(all);
    expect(all).toEqual([...all].sort());
  });

  it('shares the total across pages of a filter set and recounts after every write', async () => {
    const filter = `family=${family.slug}&plant_layer=herb&per_page=1`;
    expect((await list(`${filter}&page=1`)).total).toBe(4);
    expect((await list(`${filter}&page=2`)).total).toBe(4);
    const added = await make.species(family.id, 'Bellis perennis', { plant_layer: 'herb' });
    expect((await list(`${filter}&page=1`)).total).toBe(5);
    expect((await list(`${filter}&page=3`)).total).toBe(5);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${added.slug}`,
      headers: { cookie: writer },
      payload: { plant_layer: 'shrub' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(`${filter}&page=2`)).total).toBe(4);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/species/${added.slug}`,
      headers: { cookie: admin },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list(`family=${family.slug}&page=1`)).total).toBe(5);
  });
  it('gives the exact total on an empty page past the last, counted with the page or on its own', async () => {
    // A filter set no request has counted yet: the total comes with the page, or alone when the page is empty.
    await make.species(family.id, 'Xerochrysum bracteatum', { plant_layer: 'canopy' });
    expect(await list(`family=${family.slug}&plant_layer=canopy&page=7`)).toMatchObject({
      data: [],
      total: 1,
    });
    expect(await list(`family=${family.slug}&plant_layer=sub_canopy&page=1`)).toMatchObject({
      data: [],
      total: 0,
    });
    expect(await list(`family=${family.slug}&plant_layer=sub_canopy&page=3`)).toMatchObject({
      data: [],
      total: 0,
    });
    const page = await list(`family=${family.slug}&plant_layer=canopy&page=1`);
    expect(page.total).toBe(1);
    expect(page.data.map((s) => s.name_scientific)).toEqual(['Xerochrysum bracteatum']);
  });
});
