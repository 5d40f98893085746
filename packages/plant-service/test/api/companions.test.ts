import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let make: ReturnType<typeof fixtures>;
let carrot: { id: string; slug: string };
let onion: { id: string; slug: string };
let bean: { id: string; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  make = fixtures(t, writer);
  const f = await make.family('Mixed');
  carrot = await make.species(f.id, 'Daucus carota', { name_de: 'Möhre' });
  onion = await make.species(f.id, 'Allium cepa', { name_de: 'Zwiebel' });
  bean = await make.species(f.id, 'Vicia faba');
});
afterAll(() => t.close());

const create = (payload: object, cookie = writer) =>
  t.app.inject({ method: 'POST', url: '/api/v1/companions', headers: { cookie }, payload });

describe('companions', () => {
  it('creates a relation, lists it with names, and refuses the same pair in either order (409)', async () => {
    const res = await create({
      species_a_id: carrot.id,
      species_b_id: onion.id,
      relationship: 'beneficial',
      mechanism: 'Scent confuses carrot fly.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ species_a_id: carrot.id, species_b_id: onion.id, source_url: null });

    for (const [a, b] of [
      [carrot.id, onion.id],
      [onion.id, carrot.id],
    ]) {
      const dup = await create({ species_a_id: a, species_b_id: b, relationship: 'neutral' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().existing_id).toBe(res.json().id);
    }

    const list = (await t.app.inject({ url: '/api/v1/companions' })).json();
    expect(list).toEqual([
      {
        ...res.json(),
        species_a_scientific: 'Daucus carota',
        species_a_de: 'Möhre',
        species_a_slug: 'daucus-carota',
        species_a_image: null,
        species_b_scientific: 'Allium cepa',
        species_b_de: 'Zwiebel',
        species_b_slug: 'allium-cepa',
        species_b_image: null,
      },
    ]);
    for (const s of [carrot, onion]) {
      const own = (await t.app.inject({ url: `/api/v1/species/${s.slug}/companions` })).json();
      expect(own).toEqual([res.json()]);
    }
    expect((await t.app.inject({ url: `/api/v1/species/${bean.slug}/companions` })).json()).toEqual([]);
  });

  it.each([
    [
      'self pair',
      () => ({ species_a_id: bean.id, species_b_id: bean.id, relationship: 'neutral' }),
      'species_b_id',
    ],
    [
      'unknown species',
      () => ({
        species_a_id: bean.id,
        species_b_id: '00000000-0000-4000-8000-000000000000',
        relationship: 'neutral',
      }),
      'species_b_id',
    ],
    [
      'bad relationship',
      () => ({ species_a_id: bean.id, species_b_id: onion.id, relationship: 'friends' }),
      'relationship',
    ],
    [
      'bad uuid',
      () => ({ species_a_id: 'abc', species_b_id: onion.id, relationship: 'neutral' }),
      'species_a_id',
    ],
    ['missing relationship', () => ({ species_a_id: bean.id, species_b_id: onion.id }), 'relationship'],
  ])('rejects a %s with 400 naming the field', async (_name, payload, field) => {
    const res = await create(payload());
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('needs a session to write, deletes by id, and 404s an unknown id', async () => {
    expect(
      (await create({ species_a_id: bean.id, species_b_id: onion.id, relationship: 'antagonistic' }, ''))
        .statusCode,
    ).toBe(401);
    const rel = (
      await create({ species_a_id: bean.id, species_b_id: onion.id, relationship: 'antagonistic' })
    ).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/companions/${rel.id}`,
      headers: { cookie: writer },
    });
    expect(del.json()).toEqual({ deleted: true });
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/companions/${rel.id}`,
      headers: { cookie: writer },
    });
    expect(again.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/companions/xyz',
      headers: { cookie: writer },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('id');
  });
});

describe('companion evidence and list filters', () => {
  let apple: { id: string; slug: string };
  let comfrey: { id: string; slug: string };
  let walnut: { id: string; slug: string };
  let clover: { id: string; slug: string };

  beforeAll(async () => {
    const f = await make.family('Evidentiaceae');
    apple = await make.species(f.id, 'Malus evidentia');
    comfrey = await make.species(f.id, 'Symphytum evidentia');
    walnut = await make.species(f.id, 'Juglans evidentia');
    clover = await make.species(f.id, 'Trifolium evidentia');
    for (const [a, b, relationship, evidence] of [
      [apple, comfrey, 'beneficial', 'documented'],
      [walnut, apple, 'antagonistic', 'scientific'],
      [clover, apple, 'beneficial', 'traditional'],
      [walnut, clover, 'neutral', undefined],
    ] as const) {
      const res = await create({ species_a_id: a.id, species_b_id: b.id, relationship, evidence });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().evidence).toBe(evidence ?? null);
    }
  });

  const pairs = (list: { species_a_id: string; species_b_id: string }[]) =>
    list.map((r) => [r.species_a_id, r.species_b_id]);
  const get = async (url: string) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('stores evidence (optional, nullable) and returns it in both list shapes', async () => {
    const all = await get(`/api/v1/companions?species=${apple.slug}`);
    expect(all.map((r: { evidence: string }) => r.evidence).sort()).toEqual([
      'documented',
      'scientific',
      'traditional',
    ]);
    const explicitNull = await create({
      species_a_id: comfrey.id,
      species_b_id: clover.id,
      relationship: 'neutral',
      evidence: null,
    });
    expect(explicitNull.json().evidence).toBeNull();
    const own = await get(`/api/v1/species/${walnut.slug}/companions`);
    expect(own.map((r: { evidence: string | null }) => r.evidence)).toEqual(['scientific', null]);
  });

  it('filters GET /companions by species slug (either side), relationship and evidence, combined with AND', async () => {
    expect(pairs(await get(`/api/v1/companions?species=${walnut.slug}`))).toEqual([
      [walnut.id, apple.id],
      [walnut.id, clover.id],
    ]);
    expect(pairs(await get(`/api/v1/companions?species=${apple.slug}&relationship=beneficial`))).toEqual([
      [apple.id, comfrey.id],
      [clover.id, apple.id],
    ]);
    expect(
      pairs(
        await get(`/api/v1/companions?species=${apple.slug}&relationship=beneficial&evidence=traditional`),
      ),
    ).toEqual([[clover.id, apple.id]]);
    const scientific = await get('/api/v1/companions?evidence=scientific');
    expect(scientific.every((r: { evidence: string }) => r.evidence === 'scientific')).toBe(true);
    expect(pairs(scientific)).toContainEqual([walnut.id, apple.id]);
    expect(await get('/api/v1/companions?species=no-such-species')).toEqual([]);
  });

  it('filters GET /species/{ref}/companions by relationship and evidence; a null evidence matches no filter', async () => {
    expect(pairs(await get(`/api/v1/species/${apple.slug}/companions?relationship=antagonistic`))).toEqual([
      [walnut.id, apple.id],
    ]);
    expect(pairs(await get(`/api/v1/species/${clover.id}/companions?evidence=traditional`))).toEqual([
      [clover.id, apple.id],
    ]);
    for (const evidence of ['scientific', 'documented', 'traditional']) {
      const found = await get(
        `/api/v1/species/${walnut.slug}/companions?relationship=neutral&evidence=${evidence}`,
      );
      expect(found).toEqual([]);
    }
  });

  it.each([
    ['/api/v1/companions?evidence=folklore', 'evidence'],
    ['/api/v1/companions?relationship=friends', 'relationship'],
    ['/api/v1/companions?species=', 'species'],
    ['/api/v1/companions?colour=red', 'colour'],
    ['/api/v1/species/malus-evidentia/companions?evidence=hearsay', 'evidence'],
    ['/api/v1/species/malus-evidentia/companions?species=malus-evidentia', 'species'],
  ])('answers %s with 400 naming %s', async (url, field) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('rejects an unknown evidence value on create with 400 naming the field', async () => {
    const res = await create({
      species_a_id: comfrey.id,
      species_b_id: walnut.id,
      relationship: 'neutral',
      evidence: 'anecdotal',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('evidence');
  });
});
