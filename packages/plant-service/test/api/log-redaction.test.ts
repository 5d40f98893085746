/**
 * The request log keeps no sign-in secrets: the OIDC callback's code and state and tokens in a
 * query string are written as [redacted], the rest of the URL as it was.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let log = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  t = await createTestApp({}, { logger: { level: 'info', stream } });
});
afterAll(() => t.close());

describe('request log', () => {
  it('redacts code and state of the OIDC callback, and tokens in query strings', async () => {
    await t.app.inject({ url: '/auth/oidc/callback?code=SECRET-CODE&state=S2-STATE&iss=https%3A%2F%2Fidp' });
    await t.app.inject({
      url: '/api/v1/species?token=T3-TOKEN&access_token=T4-ACCESS&id_token=T5-ID&limit=2',
    });
    const requests = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { req?: { url: string } })
      .filter((entry) => entry.req && !entry.req.url.startsWith('/api/openapi'));
    expect(requests.map((entry) => entry.req!.url)).toEqual([
      '/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
      '/api/v1/species?token=[redacted]&access_token=[redacted]&id_token=[redacted]&limit=2',
    ]);
    for (const secret of ['SECRET-CODE', 'S2-STATE', 'T3-TOKEN', 'T4-ACCESS', 'T5-ID'])
      expect(log).not.toContain(secret);
    expect(log).toContain('[redacted]');
  });
});
