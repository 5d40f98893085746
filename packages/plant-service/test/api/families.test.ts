import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let admin: string;
let make: ReturnType<typeof fixtures>;

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  make = fixtures(t, writer);
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('families', () => {
  it('creates a family with a slug from the scientific name and reads it by slug and by uuid', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie: writer },
      payload: { name_scientific: 'Rosaceae', name_de: 'Rosengewächse' },
    });
    expect(res.statusCode).toBe(200);
    const family = res.json();
    expect(Object.keys(family).sort()).toEqual(
      [
        'created_at',
        'description',
        'id',
        'name_de',
        'name_en',
        'name_scientific',
        'slug',
        'updated_at',
      ].sort(),
    );
    expect(family).toMatchObject({
      slug: 'rosaceae',
      name_de: 'Rosengewächse',
      name_en: null,
      description: null,
    });
    expect(family.created_at).toMatch(ISO);
    for (const ref of [family.slug, family.id, family.id.toUpperCase()]) {
      const got = await t.app.inject({ url: `/api/v1/families/${ref}` });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(family);
    }
  });

  it('gives a taken slug the first free numeric suffix', async () => {
    const a = await make.family('Lamiaceae');
    const b = await make.family('lamiaceae');
    const c = await make.family('LAMIACEAE');
    expect([a.slug, b.slug, c.slug]).toEqual(['lamiaceae', 'lamiaceae-2', 'lamiaceae-3']);
  });

  it('PUT leaves omitted fields, clears nulls, keeps the slug and moves updated_at', async () => {
    const f = await make.family('Apiaceae', { name_en: 'Carrot family', name_de: 'Doldenblütler' });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${f.slug}`,
      headers: { cookie: writer },
      payload: { name_scientific: 'Umbelliferae', name_en: null },
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json();
    expect(updated).toMatchObject({
      slug: 'apiaceae',
      name_scientific: 'Umbelliferae',
      name_en: null,
      name_de: 'Doldenblütler',
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(f.updated_at as string));
    expect(updated.created_at).toBe(f.created_at);
  });

  it('refuses to null a required field', async () => {
    const f = await make.family('Poaceae');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${f.id}`,
      headers: { cookie: writer },
      payload: { name_scientific: null },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'name_scientific' });
    expect(res.json().error).toContain('name_scientific');
  });

  it('lists in scientific-name order with the envelope, and pages', async () => {
    const res = await t.app.inject({ url: '/api/v1/families?per_page=2' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, per_page: 2 });
    expect(body.total).toBeGreaterThanOrEqual(5);
    const all = await t.app.inject({ url: '/api/v1/families?per_page=100' });
    const names = all.json().data.map((f: { name_scientific: string }) => f.name_scientific);
    expect(names).toEqual([...names].sort());
    const page2 = await t.app.inject({ url: '/api/v1/families?per_page=2&page=2' });
    expect(page2.json().data.map((f: { id: string }) => f.id)).toEqual(
      all
        .json()
        .data.slice(2, 4)
        .map((f: { id: string }) => f.id),
    );
  });

  it('answers 404 for an unknown slug or uuid', async () => {
    for (const ref of ['no-such-family', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.app.inject({ url: `/api/v1/families/${ref}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toContain(ref);
    }
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/families/nope',
      headers: { cookie: writer },
      payload: {},
    });
    expect(put.statusCode).toBe(404);
  });

  it('deletes only as admin, and refuses with 409 naming the count while species remain', async () => {
    const f = await make.family('Fabaceae');
    await make.species(f.id, 'Vicia faba');
    await make.species(f.id, 'Pisum sativum');

    const noSession = await t.app.inject({ method: 'DELETE', url: `/api/v1/families/${f.slug}` });
    expect(noSession.statusCode).toBe(401);
    const notAdmin = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${f.slug}`,
      headers: { cookie: writer },
    });
    expect(notAdmin.statusCode).toBe(403);
    const referenced = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${f.slug}`,
      headers: { cookie: admin },
    });
    expect(referenced.statusCode).toBe(409);
    expect(referenced.json()).toMatchObject({ species_count: 2 });
    expect(referenced.json().error).toContain('2 species');
    expect((await t.app.inject({ url: `/api/v1/families/${f.slug}` })).statusCode).toBe(200);

    const empty = await make.family('Urticaceae');
    const ok = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${empty.id}`,
      headers: { cookie: admin },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ deleted: true });
    expect((await t.app.inject({ url: `/api/v1/families/${empty.id}` })).statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${empty.id}`,
      headers: { cookie: admin },
    });
    expect(again.statusCode).toBe(404);
  });

  it('searches families in the list', async () => {
    const res = await t.app.inject({ url: '/api/v1/families?search=fab' });
    expect(res.json().data.map((f: { slug: string }) => f.slug)).toEqual(['fabaceae']);
    expect(res.json().total).toBe(1);
  });
});
