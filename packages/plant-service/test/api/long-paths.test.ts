/**
 * What the router answers before a route is chosen keeps the contract: an over-long path
 * parameter is a documented 414, a malformed percent-encoding a 400, both `{error}` naming the path
 * without echoing it. Fastify runs no hooks for these answers, so the automatic contract check
 * never sees them: they are checked against the served document here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type Contract, contractOf } from '../helpers/contract.js';

let t: TestApp;
let contract: Contract;
beforeAll(async () => {
  t = await createTestApp();
  contract = contractOf((await t.app.inject({ url: '/api/openapi.yaml' })).body);
});

/** The response to `url`, failing when it breaks the served document. */
async function get(url: string) {
  const res = await t.app.inject({ url });
  const violation = contract.check({
    method: 'GET',
    route: undefined,
    url,
    status: res.statusCode,
    contentType: String(res.headers['content-type'] ?? ''),
    body: res.body,
  });
  expect(violation).toBeUndefined();
  return res;
}
afterAll(() => t.close());

describe('paths the router refuses', () => {
  it.each([
    '/api/v1/species/{}',
    '/api/v1/families/{}',
    '/api/v1/cultivars/{}',
    '/api/v1/species/{}/companions',
  ])('a path parameter over 500 characters in %s is a 414 {error}', async (template) => {
    const long = 'a'.repeat(501);
    const res = await get(template.replace('{}', long));
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: 'path: a path parameter is longer than 500 characters' });
    expect(res.body).not.toContain(long);
  });

  it('500 characters reach the route, whose own validation answers', async () => {
    const res = await t.app.inject({ url: `/api/v1/species/${'a'.repeat(500)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('ref');
  });

  it('a malformed percent-encoding in a path parameter is a 400 {error}', async () => {
    const res = await get('/api/v1/species/%zz');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^path: /);
  });

  it('the document lists the 414 on operations with path parameters', async () => {
    const document = parse((await t.app.inject({ url: '/api/openapi.yaml' })).body);
    expect(document.paths['/api/v1/species/{ref}'].get.responses['414']).toBeDefined();
    expect(document.paths['/api/v1/species'].get.responses['414']).toBeUndefined();
  });
});
