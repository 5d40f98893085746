import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let writer: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
});
afterAll(() => t.close());

describe('families', () => {
  it('creates a family with a slug from the scientific name and reads it by slug and uuid', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie: writer },
      payload: { name_scientific: 'Rosaceae', name_de: 'Rosengewächse' },
    });
    expect(res.statusCode).toBe(200);
    const family = res.json();
    expect(family).toMatchObject({
      slug: 'rosaceae',
      name_scientific: 'Rosaceae',
      name_de: 'Rosengewächse',
      name_en: null,
      description: null,
    });
    expect(family.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    for (const ref of [family.slug, family.id]) {
      const got = await t.app.inject({ url: `/api/v1/families/${ref}` });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(family);
    }
  });

  it('lists with the paginated envelope', async () => {
    const res = await t.app.inject({ url: '/api/v1/families?page=1&per_page=10' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, page: 1, per_page: 10 });
    expect(res.json().data).toHaveLength(1);
  });
});
