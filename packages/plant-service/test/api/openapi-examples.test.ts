/**
 * The request examples in the OpenAPI document ("Try it out" pre-fills them) are real records
 * from the starter dataset, and the API accepts each one as it stands (only the ids of the
 * records they refer to are swapped for this database's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let cookie: string;
let paths: Record<
  string,
  Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>
>;

beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.cookie({ admin: true });
  paths = (t.app.swagger() as { paths: typeof paths }).paths;
});
afterAll(() => t.close());

function example(path: string): Record<string, unknown> {
  const value = paths[path]?.post?.requestBody?.content['application/json']?.example;
  expect(value, `example of POST ${path}`).toBeTypeOf('object');
  return value as Record<string, unknown>;
}

async function post(url: string, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; name_scientific?: string; name?: string };
}

describe('OpenAPI request examples', () => {
  it('are starter-dataset records the API accepts', async () => {
    const family = await post('/api/v1/families', example('/api/v1/families'));
    expect(family.name_scientific).toBe('Apiaceae');
    const species = await post('/api/v1/species', { ...example('/api/v1/species'), family_id: family.id });
    expect(species.name_scientific).toBe('Daucus carota');
    const apple = await post('/api/v1/species', { family_id: family.id, name_scientific: 'Malus domestica' });
    const cultivar = await post('/api/v1/cultivars', {
      ...example('/api/v1/cultivars'),
      species_id: apple.id,
    });
    expect(cultivar.name).toBe('Berner Rosen');
    const supplier = await post('/api/v1/suppliers', example('/api/v1/suppliers'));
    expect(supplier.name).toBe('Arche Noah');
  });

  it('name every operation by a unique operationId', () => {
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId?: string }).operationId),
    );
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
