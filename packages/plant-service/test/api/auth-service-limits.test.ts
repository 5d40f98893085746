/**
 * The service around the login: without OIDC_ISSUER login answers 503 and reads
 * work; with the provider down at start the service starts, serves reads, answers 503 and
 * logs in once discovery succeeds on retry; https PUBLIC_URL gives Secure cookies and HSTS;
 * security headers with a CSP; rate limits on /auth/* and on writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

describe('without OIDC_ISSUER (and with the /auth/* limit off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '0' });
  });
  afterAll(() => t.close());

  it.each(['/auth/oidc/login', '/auth/oidc/callback?code=c&state=s', '/auth/oidc/logout'])(
    '%s answers 503 login is not configured',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'login is not configured' });
    },
  );

  it('still serves reads, and /auth/me is a plain 401 (never 429 with the limit at 0)', async () => {
    expect((await t.app.inject({ url: '/api/v1/families' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.app.inject({ url: '/auth/me' })).statusCode).toBe(401);
  });

  it('sends a CSP and the other helmet headers, without HSTS on http', async () => {
    const res = await t.app.inject({ url: '/api/v1/families' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // The same headers on an answer from the response cache, and on an error.
    const again = await t.app.inject({ url: '/api/v1/families' });
    const missing = await t.app.inject({ url: '/api/v1/no-such-resource' });
    expect(missing.statusCode).toBe(404);
    for (const other of [again, missing]) {
      expect(other.headers['content-security-policy']).toBe(csp);
      expect(other.headers['x-frame-options']).toBe('DENY');
      expect(other.headers['cross-origin-resource-policy']).toBe('same-site');
    }
    expect(again.headers['x-cache']).toBe('HIT');
  });

  it('serves the API docs page with only same-origin scripts, so the CSP allows it', async () => {
    const res = await t.app.inject({ url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBeDefined();
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toMatch(/src="\.\/static\//);
  });
});

describe('provider down at start', () => {
  let rig: LoginRig;
  beforeAll(async () => {
    rig = await startLoginRig({ idpDown: true });
  });
  afterAll(() => rig.close());

  it('starts, serves reads, answers 503 for login, and logs in once the provider is back', async () => {
    const reads = await fetch(`${rig.url}/api/v1/families`);
    expect(reads.status).toBe(200);
    const login = await fetch(`${rig.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(login.status).toBe(503);
    expect(((await login.json()) as { error: string }).error).toMatch(/cannot be reached/);

    await rig.startIdp();
    // Discovery is retried with backoff (first retry after about a second).
    await rig.waitForLogin(8_000);
    const browser = rig.browser();
    const landed = await rig.signIn(browser, 'editor', '/auth/me');
    expect(landed.status).toBe(200);
  });
});

describe('https PUBLIC_URL behind a TLS-terminating proxy', () => {
  let rig: LoginRig;
  beforeAll(async () => {
    rig = await startLoginRig({ publicUrl: 'https://plants.example.test' });
  });
  afterAll(() => rig.close());

  it('marks the cookies Secure, and sends HSTS', async () => {
    const browser = rig.browser();
    const landed = await rig.signIn(browser, 'admin', '/auth/me');
    expect(landed.status).toBe(200);
    const session = browser.setCookieLog.find((h) => h.startsWith('id='))!;
    expect(session).toMatch(/; Secure/);
    expect(browser.setCookieLog.find((h) => h.startsWith('oidc_login='))).toMatch(/; Secure/);
    expect(landed.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(landed.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3', RATE_LIMIT_WRITES_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  it('limits /auth/* per address, one budget for all its routes', async () => {
    const urls = ['/auth/me', '/auth/oidc/login', '/auth/me'];
    for (const url of urls) expect((await t.app.inject({ url })).statusCode).not.toBe(429);
    const limited = await t.app.inject({ url: '/auth/oidc/logout' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/too many requests/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits writes per address across write routes, and leaves reads alone', async () => {
    const cookie = await t.cookie({ admin: true });
    const post = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/families',
        headers: { cookie },
        payload: { name_scientific: name },
      });
    expect((await post('Limit A')).statusCode).toBe(200);
    expect((await post('Limit B')).statusCode).toBe(200);
    const third = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/families/limit-a',
      headers: { cookie },
    });
    expect(third.statusCode).toBe(429);
    for (let i = 0; i < 5; i++)
      expect((await t.app.inject({ url: '/api/v1/families' })).statusCode).toBe(200);
  });
});
