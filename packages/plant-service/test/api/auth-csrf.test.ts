/**
 * CSRF and CORS: a cookie-authenticated POST, PUT or DELETE needs an Origin (or
 * Referer) equal to PUBLIC_URL or listed in CORS_ORIGINS, else 403; CORS with credentials for
 * exactly those origins. Over real HTTP, so the headers are exactly the ones written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const PUBLIC = 'https://plants.example.org';
const PLANNER = 'https://planner.example.net';
const EVIL = 'https://evil.example';

let t: TestApp;
let base: string;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC, CORS_ORIGINS: `${PLANNER}, http://localhost:5173` });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  cookie = await t.cookie({ admin: true });
});
afterAll(() => t.close());

let n = 0;
function post(headers: Record<string, string>) {
  n += 1;
  return fetch(`${base}/api/v1/families`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name_scientific: `Csrf ${n}` }),
  });
}

async function errorOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}

describe('CSRF origin check', () => {
  it('refuses a cookie write with neither Origin nor Referer', async () => {
    const res = await post({ cookie });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatch(/needs an Origin or Referer/);
  });

  it.each([EVIL, 'null', 'https://plants.example.org.evil.example', 'http://plants.example.org'])(
    'refuses a cookie write from Origin %s',
    async (origin) => {
      const res = await post({ cookie, origin });
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toMatch(/cross-site request refused/);
    },
  );

  it('accepts PUBLIC_URL and CORS_ORIGINS as Origin, and a Referer on them when Origin is absent', async () => {
    expect((await post({ cookie, origin: PUBLIC })).status).toBe(200);
    expect((await post({ cookie, origin: PLANNER })).status).toBe(200);
    expect((await post({ cookie, origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post({ cookie, referer: `${PUBLIC}/api/docs/` })).status).toBe(200);
    expect((await post({ cookie, referer: `${EVIL}/page` })).status).toBe(403);
  });

  it('checks PUT and DELETE too, before anything else happens', async () => {
    const created = await post({ cookie, origin: PUBLIC });
    const { slug } = (await created.json()) as { slug: string };
    for (const method of ['PUT', 'DELETE']) {
      const res = await fetch(`${base}/api/v1/families/${slug}`, {
        method,
        headers: { cookie, origin: EVIL, 'content-type': 'application/json' },
        body: method === 'PUT' ? JSON.stringify({ description: 'changed' }) : undefined,
      });
      expect(res.status).toBe(403);
    }
    const still = await fetch(`${base}/api/v1/families/${slug}`);
    expect(((await still.json()) as { description: unknown }).description).toBeNull();
  });

  it('leaves writes without the session cookie to the auth guard (401), and reads alone', async () => {
    expect((await post({ origin: EVIL })).status).toBe(401);
    expect((await fetch(`${base}/api/v1/families`, { headers: { cookie, origin: EVIL } })).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight from a trusted origin with credentials allowed', async () => {
    const res = await fetch(`${base}/api/v1/families`, {
      method: 'OPTIONS',
      headers: {
        origin: PLANNER,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PLANNER);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('gives an untrusted origin no CORS headers', async () => {
    const preflight = await fetch(`${base}/api/v1/families`, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${base}/api/v1/families`, { headers: { origin: EVIL } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a trusted origin read the response of a credentialed request', async () => {
    const res = await post({ cookie, origin: PLANNER });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(PLANNER);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });
});
