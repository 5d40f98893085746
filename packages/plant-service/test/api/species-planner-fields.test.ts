/**
 * The planner fields of a species (legal status, hazards, edible parts, life cycle, light, ...):
 * written and read back through the API exactly, checked against their shapes, and filtered and
 * counted by the species list, also where the in-memory list index answers the list's other filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let familyId: string;
/** A family of its own for the species written by the tests of writes. */
let otherFamilyId: string;

const UNION = {
  jurisdiction: 'EU',
  kind: 'union_list_invasive',
  source: 'https://eur-lex.europa.eu/eli/reg_impl/2016/1141/oj',
};
const BANNED_CH = {
  jurisdiction: 'CH',
  kind: 'banned',
  source: 'https://www.fedlex.admin.ch/eli/cc/2008/614/de',
};
const SALE_BANNED_CH = { ...BANNED_CH, kind: 'sale_banned', note: 'Annex 2.2' };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  const make = fixtures(t, writer);
  familyId = (await make.family('Plannerae')).id;
  otherFamilyId = (await make.family('Scriptaceae')).id;
  await make.species(familyId, 'Alpha invasiva', {
    plant_layer: 'herb',
    light: ['full_sun', 'partial_shade'],
    life_cycle: 'perennial',
    legal_status: [UNION],
    edible_parts: [{ part: 'shoot', caution_en: 'Cook first.', caution_de: 'Erst kochen.' }],
  });
  await make.species(familyId, 'Beta helvetica', {
    plant_layer: 'herb',
    light: ['shade'],
    life_cycle: 'annual',
    legal_status: [SALE_BANNED_CH],
    edible_parts: [{ part: 'leaf' }, { part: 'seed', caution_en: null, caution_de: null }],
  });
  await make.species(familyId, 'Gamma libera', {
    plant_layer: 'herb',
    light: ['full_sun'],
    life_cycle: 'perennial',
    legal_status: [],
    edible_parts: [],
  });
  // Nothing known of its planner fields.
  await make.species(familyId, 'Delta ignota', { plant_layer: 'herb' });
});
afterAll(() => t.close());

const post = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/species',
    headers: { cookie: writer },
    payload: { family_id: otherFamilyId, ...payload },
  });
const names = async (query: string) => {
  const res = await t.app.inject({ url: `/api/v1/species?family=plannerae&${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { name_scientific: string }[]).map((s) => s.name_scientific);
};

describe('planner fields', () => {
  it('are written and read back exactly, list items in their declared member order whatever order they were sent in', async () => {
    const res = await post({
      name_scientific: 'Heracleum exemplum',
      legal_status: [{ source: BANNED_CH.source, note: 'Anhang 2', kind: 'banned', jurisdiction: 'CH' }],
      hazards: [
        {
          source: 'https://toxinfo.ch/',
          text_de: 'Der Saft macht die Haut lichtempfindlich.',
          text_en: 'The sap makes skin sensitive to sunlight.',
          parts: ['sap', 'leaf'],
          kind: 'phototoxic',
        },
      ],
      edible_parts: [{ caution_de: 'Nur gekocht.', part: 'root', caution_en: 'Only cooked.' }],
      life_cycle: 'biennial',
      woody: false,
      leaf_retention: 'deciduous',
      height_m: 2.5,
      width_m: 0.8,
      light: ['full_sun', 'partial_shade'],
      flower_sex: 'hermaphrodite',
      self_fertile: true,
      flowering_months: [6, 7, 8],
      nutrient_demand: 'high',
    });
    expect(res.statusCode, res.body).toBe(200);
    const written = res.json();
    expect(res.body).toContain(
      `"legal_status":[{"jurisdiction":"CH","kind":"banned","source":"${BANNED_CH.source}","note":"Anhang 2"}]`,
    );
    expect(res.body).toContain(
      '"edible_parts":[{"part":"root","caution_en":"Only cooked.","caution_de":"Nur gekocht."}]',
    );
    expect(written.hazards).toEqual([
      {
        kind: 'phototoxic',
        parts: ['sap', 'leaf'],
        text_en: 'The sap makes skin sensitive to sunlight.',
        text_de: 'Der Saft macht die Haut lichtempfindlich.',
        source: 'https://toxinfo.ch/',
      },
    ]);
    expect(written).toMatchObject({
      height_m: 2.5,
      light: ['full_sun', 'partial_shade'],
      flowering_months: [6, 7, 8],
    });
    // The kept text of the read is byte for byte the write's answer.
    const read = await t.app.inject({ url: `/api/v1/species/${written.slug}` });
    expect(read.body).toBe(res.body);

    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${written.slug}`,
      headers: { cookie: writer },
      payload: { hazards: null, legal_status: [], light: ['shade'] },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({
      hazards: null,
      legal_status: [],
      light: ['shade'],
      life_cycle: 'biennial',
    });
    expect((await t.app.inject({ url: `/api/v1/species/${written.slug}` })).body).toBe(cleared.body);
  });

  it('are null on a species that names none of them', async () => {
    const res = await t.app.inject({ url: '/api/v1/species/delta-ignota' });
    const s = res.json();
    for (const field of ['legal_status', 'hazards', 'edible_parts', 'life_cycle', 'light', 'height_m'])
      expect(s[field], field).toBeNull();
  });

  it.each([
    [{ legal_status: [{ ...UNION, source: 'ftp://example.org/list' }] }, 'legal_status.0.source'],
    [{ legal_status: [{ ...UNION, source: 'javascript:alert(1)' }] }, 'legal_status.0.source'],
    [{ legal_status: [{ ...UNION, jurisdiction: 'Europe' }] }, 'legal_status.0.jurisdiction'],
    [{ legal_status: [{ ...UNION, kind: 'invasive' }] }, 'legal_status.0.kind'],
    [{ legal_status: [{ jurisdiction: 'EU', kind: 'banned' }] }, 'legal_status.0.source'],
    [{ legal_status: [{ ...UNION, why: 'x' }] }, 'legal_status.0.why'],
    [
      {
        hazards: [{ kind: 'toxic', parts: ['leaves'], text_en: 'a', text_de: 'b', source: 'https://x.org' }],
      },
      'hazards.0.parts.0',
    ],
    [{ hazards: [{ kind: 'toxic', parts: [], text_en: 'a', source: 'https://x.org' }] }, 'hazards.0.text_de'],
    [{ edible_parts: [{ part: 'leaf', caution_en: 'x'.repeat(301) }] }, 'edible_parts.0.caution_en'],
    [{ light: [] }, 'light'],
    [{ light: ['shade', 'shade'] }, 'light'],
    [{ light: ['moonlight'] }, 'light.0'],
    [{ height_m: 0 }, 'height_m'],
    [{ width_m: -1 }, 'width_m'],
    [{ flowering_months: [13] }, 'flowering_months.0'],
    [{ flowering_months: [7, 6] }, 'flowering_months'],
    [{ life_cycle: 'shrubby' }, 'life_cycle'],
    [{ nutrient_demand: 'huge' }, 'nutrient_demand'],
  ])('refuses %j with a 400 naming %s', async (values, field) => {
    const res = await post({ name_scientific: 'Refusa planta', ...values });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
  });
});

describe('planner filters', () => {
  it('filter by light, life cycle and edible part (a list holding the value)', async () => {
    expect(await names('light=full_sun')).toEqual(['Alpha invasiva', 'Gamma libera']);
    expect(await names('light=shade')).toEqual(['Beta helvetica']);
    expect(await names('life_cycle=perennial')).toEqual(['Alpha invasiva', 'Gamma libera']);
    expect(await names('edible_part=seed')).toEqual(['Beta helvetica']);
    expect(await names('edible_part=shoot&light=partial_shade')).toEqual(['Alpha invasiva']);
    expect(await names('edible_part=nut')).toEqual([]);
  });

  it('answer correctly together with the filters the in-memory index answers', async () => {
    // plant_layer alone is answered from memory; with a planner filter the database answers all of it.
    expect(await names('plant_layer=herb')).toHaveLength(4);
    expect(await names('plant_layer=herb&light=shade')).toEqual(['Beta helvetica']);
    expect(await names('plant_layer=herb&life_cycle=annual')).toEqual(['Beta helvetica']);
    expect(await names('plant_layer=herb&exclude_legal_status=union_list_invasive')).toEqual([
      'Beta helvetica',
      'Delta ignota',
      'Gamma libera',
    ]);
  });

  it('exclude species carrying a legal status, in any jurisdiction or in one; unknown statuses stay', async () => {
    expect(await names('exclude_legal_status=union_list_invasive')).toEqual([
      'Beta helvetica',
      'Delta ignota',
      'Gamma libera',
    ]);
    expect(await names('exclude_legal_status=sale_banned')).toEqual([
      'Alpha invasiva',
      'Delta ignota',
      'Gamma libera',
    ]);
    expect(await names('exclude_legal_status=sale_banned:CH')).toEqual([
      'Alpha invasiva',
      'Delta ignota',
      'Gamma libera',
    ]);
    expect(await names('exclude_legal_status=sale_banned:DE')).toHaveLength(4);
    expect(await names('exclude_legal_status=union_list_invasive:EU,sale_banned:CH,banned:CH')).toEqual([
      'Delta ignota',
      'Gamma libera',
    ]);
  });

  it.each([
    'light=dim',
    'life_cycle=forever',
    'edible_part=leaves',
    'exclude_legal_status=invasive',
    'exclude_legal_status=banned:Swiss',
    'exclude_legal_status=banned,',
  ])('refuses %s with a 400', async (query) => {
    const res = await t.app.inject({ url: `/api/v1/species?${query}` });
    expect(res.statusCode, res.body).toBe(400);
  });

  it('count light, life cycle and edible parts as facets: a list counts once per value, unknown as null', async () => {
    const res = await t.app.inject({
      url: '/api/v1/species?family=plannerae&facets=light,life_cycle,edible_part,plant_layer',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { facets, total } = res.json();
    expect(total).toBe(4);
    expect(Object.keys(facets)).toEqual(['light', 'life_cycle', 'edible_part', 'plant_layer']);
    expect(facets.light).toEqual([
      { value: 'full_sun', count: 2 },
      { value: 'partial_shade', count: 1 },
      { value: 'shade', count: 1 },
      { value: null, count: 1 },
    ]);
    expect(facets.life_cycle).toEqual([
      { value: 'perennial', count: 2 },
      { value: 'annual', count: 1 },
      { value: null, count: 1 },
    ]);
    // Gamma's empty list counts nowhere; Delta's unknown one under null.
    expect(facets.edible_part).toEqual([
      { value: 'leaf', count: 1 },
      { value: 'seed', count: 1 },
      { value: 'shoot', count: 1 },
      { value: null, count: 1 },
    ]);
    expect(facets.plant_layer).toEqual([{ value: 'herb', count: 4 }]);

    const filtered = await t.app.inject({
      url: '/api/v1/species?family=plannerae&exclude_legal_status=union_list_invasive&facets=light',
    });
    expect(filtered.json().facets.light).toEqual([
      { value: 'full_sun', count: 1 },
      { value: 'shade', count: 1 },
      { value: null, count: 1 },
    ]);
  });
});
