/** Guilds around a species and checks of a set: grouping, ranking, antagonists, zones, refs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let make: ReturnType<typeof fixtures>;
const sp: Record<string, { id: string; slug: string }> = {};

type Candidate = {
  slug: string;
  score: number;
  reasons: { companion: { mechanism: string | null; evidence: string | null } | null; functions: string[] };
};
type Guild = {
  species: { slug: string };
  functions: Record<string, Candidate[]>;
  layers: Record<string, Candidate[]>;
  avoid: { slug: string; mechanism: string | null; evidence: string | null }[];
};

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  make = fixtures(t, writer);
  const fam = await make.family('Mixedaceae');
  const add = async (name: string, extra: object) => {
    const s = await make.species(fam.id, name, extra);
    sp[s.slug] = s;
  };
  await add('Malus focal', {
    plant_layer: 'sub_canopy',
    hardiness_zone_usda: '4-8',
    attracts_pollinators: true,
  });
  // A beneficial companion with one function, and an antagonist with many functions.
  await add('Allium friend', {
    plant_layer: 'herb',
    hardiness_zone_usda: '3-9',
    attracts_beneficial_insects: true,
  });
  await add('Juglans enemy', {
    plant_layer: 'canopy',
    hardiness_zone_usda: '4-9',
    nitrogen_fixer: true,
    dynamic_accumulator: true,
    attracts_pollinators: true,
    mulch_plant: true,
  });
  // Function-only candidates: more functions rank higher; a neutral relation is no reason.
  await add('Trifolium two', {
    plant_layer: 'ground_cover',
    hardiness_zone_usda: '3-10',
    nitrogen_fixer: true,
    native_status: 'native',
  });
  await add('Symphytum three', {
    plant_layer: 'herb',
    hardiness_zone_usda: '7b-9',
    dynamic_accumulator: true,
    attracts_pollinators: true,
    mulch_plant: true,
  });
  await add('Elaeagnus one', { plant_layer: 'shrub', nitrogen_fixer: true });
  await add('Zea none', { plant_layer: 'herb', hardiness_zone_usda: '4-8' });
  await add('Ribes neutral', {
    plant_layer: 'shrub',
    hardiness_zone_usda: '3-8',
    attracts_pollinators: true,
  });
  await add('Tagetes far', { plant_layer: 'herb', hardiness_zone_usda: '9-11' });

  const rel = async (a: string, b: string, relationship: string, mechanism: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/companions',
      headers: { cookie: writer },
      payload: { species_a_id: sp[a]?.id, species_b_id: sp[b]?.id, relationship, mechanism },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  await rel('malus-focal', 'allium-friend', 'beneficial', 'Chives deter apple scab.');
  await rel('juglans-enemy', 'malus-focal', 'antagonistic', 'Juglone inhibits apple roots.');
  await rel('ribes-neutral', 'malus-focal', 'neutral', 'No known effect.');
  await rel('trifolium-two', 'juglans-enemy', 'antagonistic', 'Shade.');
  await rel('allium-friend', 'tagetes-far', 'beneficial', 'Both repel pests.');
});
afterAll(() => t.close());

const guild = async (ref: string, query = '') => {
  const res = await t.app.inject({ url: `/api/v1/species/${ref}/guild${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Guild;
};
const everyCandidate = (g: Guild) => [...Object.values(g.functions), ...Object.values(g.layers)].flat();
const slugs = (xs: { slug: string }[]) => xs.map((x) => x.slug);

describe('GET /api/v1/species/{ref}/guild', () => {
  it('never suggests an antagonist or the species itself; lists antagonists under avoid with the mechanism', async () => {
    const g = await guild('malus-focal', '?limit=20');
    const suggested = slugs(everyCandidate(g));
    expect(suggested).not.toContain('juglans-enemy');
    expect(suggested).not.toContain('malus-focal');
    expect(g.avoid).toEqual([
      expect.objectContaining({
        slug: 'juglans-enemy',
        mechanism: 'Juglone inhibits apple roots.',
        evidence: null,
      }),
    ]);
    // Seen from the other side, the same relation keeps it out too.
    const fromEnemy = await guild('juglans-enemy', '?limit=20');
    expect(slugs(everyCandidate(fromEnemy))).not.toContain('malus-focal');
    expect(slugs(everyCandidate(fromEnemy))).not.toContain('trifolium-two');
    expect(slugs(fromEnemy.avoid)).toEqual(['malus-focal', 'trifolium-two']);
  });

  it('groups candidates by function and by layer with reasons, beneficial companions first', async () => {
    const g = await guild(sp['malus-focal']?.id ?? '', '?limit=20');
    expect(g.species.slug).toBe('malus-focal');
    expect(Object.keys(g.functions).sort()).toEqual([
      'beneficial_insect_attractor',
      'dynamic_accumulator',
      'ground_cover',
      'mulch_plant',
      'nitrogen_fixer',
      'pollinator_attractor',
    ]);
    expect(g.functions.beneficial_insect_attractor?.[0]).toMatchObject({
      slug: 'allium-friend',
      score: 11,
      reasons: {
        companion: { relationship: 'beneficial', mechanism: 'Chives deter apple scab.', evidence: null },
        functions: ['beneficial_insect_attractor'],
      },
    });
    expect(slugs(g.functions.nitrogen_fixer ?? [])).toEqual(['trifolium-two', 'elaeagnus-one']);
    expect(g.functions.nitrogen_fixer?.map((c) => c.score)).toEqual([2, 1]);
    expect(slugs(g.functions.ground_cover ?? [])).toEqual(['trifolium-two']);
    // Herb layer: the companion (11) before the three-function species (3); no-function species are no candidates.
    expect(slugs(g.layers.herb ?? [])).toEqual(['allium-friend', 'symphytum-three']);
    expect(g.layers.herb?.[1]).toMatchObject({
      score: 3,
      reasons: { companion: null, functions: ['dynamic_accumulator', 'pollinator_attractor', 'mulch_plant'] },
    });
    expect(slugs(everyCandidate(g))).not.toContain('zea-none');
    // A neutral relation is no reason, and no bar.
    expect(
      g.functions.pollinator_attractor?.find((c) => c.slug === 'ribes-neutral')?.reasons.companion,
    ).toBeNull();
    expect(g.layers.canopy).toEqual([]);
  });

  it('takes `limit` per group (default 5)', async () => {
    const one = await guild('malus-focal', '?limit=1');
    for (const list of [...Object.values(one.functions), ...Object.values(one.layers)])
      expect(list.length).toBeLessThanOrEqual(1);
    expect(slugs(one.functions.nitrogen_fixer ?? [])).toEqual(['trifolium-two']);
    const dflt = await guild('malus-focal');
    expect(dflt.functions.nitrogen_fixer).toHaveLength(2);
  });

  it('keeps only candidates hardy in the whole zone, and of the native status asked for', async () => {
    const z7 = await guild('malus-focal', '?hardiness_zone=7&limit=20');
    const in7 = slugs(everyCandidate(z7));
    expect(in7).toContain('trifolium-two');
    expect(in7).toContain('allium-friend');
    expect(in7).not.toContain('symphytum-three'); // 7b-9: not hardy in 7a
    expect(in7).not.toContain('elaeagnus-one'); // no zone: unknown is not hardy
    const z7b = await guild('malus-focal', '?hardiness_zone=7b&limit=20');
    expect(slugs(everyCandidate(z7b))).toContain('symphytum-three');
    const native = await guild('malus-focal', '?native_status=native&limit=20');
    expect([...new Set(slugs(everyCandidate(native)))]).toEqual(['trifolium-two']);
  });

  it('answers 404 for an unknown species and 400 naming a bad parameter', async () => {
    expect((await t.app.inject({ url: '/api/v1/species/no-such/guild' })).statusCode).toBe(404);
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=21', 'limit'],
      ['hardiness_zone=7c', 'hardiness_zone'],
      ['native_status=alien', 'native_status'],
      ['colour=red', 'colour'],
    ]) {
      const res = await t.app.inject({ url: `/api/v1/species/malus-focal/guild?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('ranks a species without a layer by its functions like any other', async () => {
    const fam = await make.family('Layerlessaceae');
    const s = await make.species(fam.id, 'Nolayer three', {
      nitrogen_fixer: true,
      attracts_pollinators: true,
      mulch_plant: true,
    });
    const g = await guild('malus-focal', '?limit=1');
    expect(g.functions.nitrogen_fixer).toEqual([
      expect.objectContaining({ slug: s.slug, plant_layer: null, score: 3 }),
    ]);
  });
});

describe('POST /api/v1/guilds/check', () => {
  const check = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/guilds/check', payload: payload as object, headers });

  it('reports conflicts, synergies, layers, roles and what is missing, without a session', async () => {
    const res = await check({
      species: ['malus-focal', 'juglans-enemy', 'allium-friend', sp['trifolium-two']?.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(slugs(body.species)).toEqual(['malus-focal', 'juglans-enemy', 'allium-friend', 'trifolium-two']);
    expect(body.conflicts).toHaveLength(2);
    expect(body.conflicts).toContainEqual(
      expect.objectContaining({
        species_a: expect.objectContaining({ slug: 'juglans-enemy' }),
        species_b: expect.objectContaining({ slug: 'malus-focal' }),
        mechanism: 'Juglone inhibits apple roots.',
        evidence: null,
      }),
    );
    expect(body.synergies).toEqual([
      expect.objectContaining({
        species_a: expect.objectContaining({ slug: 'malus-focal' }),
        species_b: expect.objectContaining({ slug: 'allium-friend' }),
        mechanism: 'Chives deter apple scab.',
      }),
    ]);
    expect(Object.keys(body.layers).sort()).toEqual(['canopy', 'ground_cover', 'herb', 'sub_canopy']);
    expect(slugs(body.layers.herb)).toEqual(['allium-friend']);
    expect(body.missing_layers).toEqual(['shrub', 'climber', 'root', 'aquatic']);
    expect(slugs(body.roles.nitrogen_fixer)).toEqual(['juglans-enemy', 'trifolium-two']);
    expect(slugs(body.roles.ground_cover)).toEqual(['trifolium-two']);
    expect(body.missing_roles).toEqual([]);
    expect(body.outside_zone).toEqual([]);
  });

  it('lists members not hardy in the zone, and members without a zone apart', async () => {
    const res = await check({
      species: ['malus-focal', 'symphytum-three', 'elaeagnus-one', 'tagetes-far'],
      hardiness_zone: '7a',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(slugs(body.outside_zone)).toEqual(['symphytum-three', 'tagetes-far']);
    expect(slugs(body.zone_unknown)).toEqual(['elaeagnus-one']);
    expect(body.missing_roles).toEqual(['beneficial_insect_attractor', 'ground_cover']);
    const at7b = (await check({ species: ['malus-focal', 'symphytum-three'], hardiness_zone: '7b' })).json();
    expect(at7b.outside_zone).toEqual([]);
  });

  it('ignores duplicates, by slug or uuid', async () => {
    const res = await check({
      species: ['malus-focal', sp['malus-focal']?.id?.toUpperCase(), 'malus-focal', 'allium-friend'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(slugs(res.json().species)).toEqual(['malus-focal', 'allium-friend']);
    expect(res.json().synergies).toHaveLength(1);
  });

  it('names the position of an unknown ref', async () => {
    const res = await check({ species: ['malus-focal', 'allium-friend', 'zea-none', 'no-such-plant'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'species[3]' });
    expect(res.json().error).toMatch(/^species\[3\]: /);
    const uuid = await check({ species: ['00000000-0000-4000-8000-000000000000', 'malus-focal'] });
    expect(uuid.json()).toMatchObject({ field: 'species[0]' });
  });

  it.each([
    [{ species: ['malus-focal'] }, 'species'],
    [{ species: Array.from({ length: 51 }, () => 'malus-focal') }, 'species'],
    [{ species: ['malus-focal', ''] }, 'species.1'],
    [{ species: ['malus-focal', 'allium-friend'], hardiness_zone: '14' }, 'hardiness_zone'],
    [{ species: ['malus-focal', 'allium-friend'], colour: 'red' }, 'colour'],
    [{}, 'species'],
  ])('rejects %j with a 400 naming %s', async (payload, field) => {
    const res = await check(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.startsWith(`${field}: `)).toBe(true);
  });

  it('changes nothing: cached reads stay cached after a check', async () => {
    const url = '/api/v1/species/malus-focal/guild';
    await t.app.inject({ url });
    expect((await t.app.inject({ url })).headers['x-cache']).toBe('HIT');
    expect((await check({ species: ['malus-focal', 'allium-friend'] })).statusCode).toBe(200);
    expect((await t.app.inject({ url })).headers['x-cache']).toBe('HIT');
  });
});
