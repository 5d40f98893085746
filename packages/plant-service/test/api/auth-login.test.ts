/**
 * The login itself, against a real oidc-provider over HTTP: login → /auth/me → write →
 * logout → 401; the session cookie; roles on delete; return_to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ADMIN_GROUP, DEV_EDITOR_GROUP } from '../../src/dev-idp/accounts.js';
import { TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

let rig: LoginRig;

beforeAll(async () => {
  rig = await startLoginRig({
    env: { OIDC_ADMIN_GROUPS: DEV_ADMIN_GROUP, OIDC_EDITOR_GROUPS: DEV_EDITOR_GROUP },
  });
});
afterAll(() => rig.close());

/** A JSON write as a page on PUBLIC_URL would send it (browsers send Origin on writes). */
function write(browser: TestBrowser, method: string, path: string, body?: unknown) {
  return browser.request(new URL(path, rig.url), {
    method,
    headers: { origin: rig.url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

const me = (browser: TestBrowser) => browser.request(new URL('/auth/me', rig.url));

describe('OIDC login', () => {
  it('logs in, shows /auth/me, writes, logs out, and then writing is 401', async () => {
    const browser = new TestBrowser();
    expect((await me(browser)).status).toBe(401);

    const landed = await rig.signIn(browser, 'editor');
    // The callback sends the browser to `/`, the home page.
    expect(landed.url.href).toBe(`${rig.url}/`);
    expect(landed.status).toBe(200);

    const profile = await me(browser);
    expect(profile.status).toBe(200);
    expect(JSON.parse(profile.body)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'editor@example.org',
      name: 'Demo Editor',
      nickname: 'editor',
      admin: false,
      can_write: true,
      roles_current: true,
    });
    expect(profile.headers.get('cache-control')).toBe('no-store');

    const created = await write(browser, 'POST', '/api/v1/families', { name_scientific: 'Lamiaceae' });
    expect(created.status).toBe(200);

    const token = browser.cookie('id')!.value;
    const out = await browser.request(new URL('/auth/oidc/logout', rig.url));
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/');
    expect(browser.cookie('id')).toBeUndefined();
    expect((await me(browser)).status).toBe(401);
    expect((await write(browser, 'POST', '/api/v1/families', { name_scientific: 'Rosaceae' })).status).toBe(
      401,
    );

    // The session is gone on the server too, not just from the browser.
    const replay = new TestBrowser();
    replay.setCookie('127.0.0.1', 'id', token);
    expect((await me(replay)).status).toBe(401);
  });

  it('sets cookie id HttpOnly, SameSite=Lax, Path=/ (not Secure on http) and rotates it at every login', async () => {
    const browser = new TestBrowser();
    await rig.signIn(browser, 'editor');
    const header = browser.setCookieLog.find((h) => h.startsWith('id='))!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    // SESSION_MAX_DAYS: 7 by default.
    expect(header).toMatch(/; Max-Age=604800/);
    expect(header).not.toMatch(/Secure/);
    const first = browser.cookie('id')!.value;

    await rig.signIn(browser, 'editor');
    const second = browser.cookie('id')!.value;
    expect(second).not.toBe(first);
    expect((await me(browser)).status).toBe(200);
    const old = new TestBrowser();
    old.setCookie('127.0.0.1', 'id', first);
    expect((await me(old)).status).toBe(401);
  });

  it('keeps one user per issuer and subject across logins', async () => {
    const a = new TestBrowser();
    const b = new TestBrowser();
    await rig.signIn(a, 'admin');
    await rig.signIn(b, 'admin');
    const idA = JSON.parse((await me(a)).body).id;
    const idB = JSON.parse((await me(b)).body).id;
    expect(idA).toBe(idB);
  });

  it('lets a non-admin create but not delete; an admin deletes', async () => {
    const editor = new TestBrowser();
    const admin = new TestBrowser();
    await rig.signIn(editor, 'editor');
    await rig.signIn(admin, 'admin');
    expect(JSON.parse((await me(admin)).body).admin).toBe(true);

    const created = await write(editor, 'POST', '/api/v1/families', { name_scientific: 'Apiaceae' });
    expect(created.status).toBe(200);
    const { slug } = JSON.parse(created.body);

    const refused = await write(editor, 'DELETE', `/api/v1/families/${slug}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error).toEqual(expect.any(String));
    const deleted = await write(admin, 'DELETE', `/api/v1/families/${slug}`);
    expect(deleted.status).toBe(200);
  });

  it('returns to a relative return_to after login', async () => {
    const browser = new TestBrowser();
    const landed = await rig.signIn(browser, 'editor', '/auth/me?x=1');
    expect(landed.url.href).toBe(`${rig.url}/auth/me?x=1`);
    expect(landed.status).toBe(200);
    expect(JSON.parse(landed.body).email).toBe('editor@example.org');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/auth/oidc/logout',
  ])('refuses return_to=%s with 400 and no redirect', async (returnTo) => {
    const res = await fetch(`${rig.url}/auth/oidc/login?return_to=${encodeURIComponent(returnTo)}`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(((await res.json()) as { error: string }).error).toMatch(/^return_to: /);
  });

  it('sends the provider the authorization code flow with PKCE S256, state and nonce', async () => {
    const res = await fetch(`${rig.url}/auth/oidc/login`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.href.startsWith(rig.url)).toBe(false);
    const q = location.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{43}$/);
    expect(q.get('redirect_uri')).toBe(`${rig.url}/auth/oidc/callback`);
    expect(q.get('scope')).toBe('openid email profile');
    const loginCookie = res.headers.getSetCookie().find((c) => c.startsWith('oidc_login='))!;
    expect(loginCookie).toBe(
      `oidc_login=${q.get('state')}; Max-Age=600; Path=/auth/oidc/callback; HttpOnly; SameSite=Lax`,
    );
  });
});
