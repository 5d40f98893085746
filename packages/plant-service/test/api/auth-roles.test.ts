/**
 * Roles from the provider: ADMIN_EMAILS only with a verified email, admin and editor
 * groups (WRITE_ACCESS=groups), re-evaluated at every login; claims in the ID token or from
 * userinfo; a nested groups claim; a public client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevAccountClaims } from '../../src/dev-idp/accounts.js';
import { TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

const person = (email: string, extra: DevAccountClaims = {}): DevAccountClaims => ({
  email,
  email_verified: true,
  name: email.split('@')[0],
  ...extra,
});

async function me(rig: LoginRig, browser: TestBrowser) {
  const page = await browser.request(`${rig.url}/auth/me`);
  return { status: page.status, body: JSON.parse(page.body) };
}

function write(rig: LoginRig, browser: TestBrowser, method: string, path: string, body?: unknown) {
  return browser.request(`${rig.url}${path}`, {
    method,
    headers: { origin: rig.url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

describe('roles from ADMIN_EMAILS and groups (userinfo claims)', () => {
  let rig: LoginRig;
  beforeAll(async () => {
    rig = await startLoginRig({
      env: {
        ADMIN_EMAILS: 'Boss@Example.org, unverified@example.org, string@example.org',
        OIDC_ADMIN_GROUPS: 'garden-admins',
        OIDC_EDITOR_GROUPS: 'gardeners,growers',
        WRITE_ACCESS: 'groups',
      },
      accounts: new Map([
        ['boss', person('boss@EXAMPLE.org')],
        ['unverified', person('unverified@example.org', { email_verified: false })],
        ['string', person('string@example.org', { email_verified: 'true' })],
        ['groupadmin', person('ga@example.org', { groups: ['garden-admins'] })],
        ['editor', person('ed@example.org', { groups: ['growers'] })],
        ['single', person('single@example.org', { groups: 'gardeners' })],
        ['reader', person('reader@example.org', { groups: ['visitors'] })],
        ['changing', person('changing@example.org', { groups: ['garden-admins'] })],
        ['nomail', { name: 'No Mail' }],
      ]),
    });
  });
  afterAll(() => rig.close());

  it('makes a verified email in ADMIN_EMAILS an admin (case-insensitive), also when verified is "true"', async () => {
    for (const login of ['boss', 'string']) {
      const browser = new TestBrowser();
      await rig.signIn(browser, login);
      expect((await me(rig, browser)).body.admin).toBe(true);
    }
  });

  it('does not make an unverified email in ADMIN_EMAILS an admin', async () => {
    const browser = new TestBrowser();
    await rig.signIn(browser, 'unverified');
    const { status, body } = await me(rig, browser);
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: 'unverified@example.org', admin: false, can_write: false });
    expect(
      (await write(rig, browser, 'POST', '/api/v1/families', { name_scientific: 'Poaceae' })).status,
    ).toBe(403);
  });

  it('makes a member of OIDC_ADMIN_GROUPS an admin who may delete', async () => {
    const browser = new TestBrowser();
    await rig.signIn(browser, 'groupadmin');
    expect((await me(rig, browser)).body.admin).toBe(true);
    const created = await write(rig, browser, 'POST', '/api/v1/families', { name_scientific: 'Fabaceae' });
    expect(created.status).toBe(200);
    const { slug } = JSON.parse(created.body);
    expect((await write(rig, browser, 'DELETE', `/api/v1/families/${slug}`)).status).toBe(200);
  });

  it('lets editors (a group array or a single string claim) write but not delete; others get 403', async () => {
    const admin = new TestBrowser();
    await rig.signIn(admin, 'groupadmin');
    for (const login of ['editor', 'single']) {
      const browser = new TestBrowser();
      await rig.signIn(browser, login);
      expect((await me(rig, browser)).body.admin).toBe(false);
      const created = await write(rig, browser, 'POST', '/api/v1/families', {
        name_scientific: `Ed ${login}`,
      });
      expect(created.status).toBe(200);
      const { slug } = JSON.parse(created.body);
      expect((await write(rig, browser, 'DELETE', `/api/v1/families/${slug}`)).status).toBe(403);
      expect((await write(rig, admin, 'DELETE', `/api/v1/families/${slug}`)).status).toBe(200);
    }
    const reader = new TestBrowser();
    await rig.signIn(reader, 'reader');
    const refused = await write(rig, reader, 'POST', '/api/v1/families', { name_scientific: 'Nope' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).error).toMatch(/editor role/);
  });

  it('re-evaluates roles at every login', async () => {
    const browser = new TestBrowser();
    await rig.signIn(browser, 'changing');
    expect((await me(rig, browser)).body.admin).toBe(true);
    rig.accounts.set('changing', person('changing@example.org', { groups: [] }));
    await rig.signIn(browser, 'changing');
    expect((await me(rig, browser)).body.admin).toBe(false);
  });

  it('refuses a login without an email address: 401, no session', async () => {
    const browser = new TestBrowser();
    const page = await rig.signIn(browser, 'nomail');
    expect(page.status).toBe(401);
    expect(JSON.parse(page.body).error).toMatch(/no email address/);
    expect(browser.cookie('id')).toBeUndefined();
  });
});

describe('claims in the ID token, a nested groups claim, a public client', () => {
  let rig: LoginRig;
  beforeAll(async () => {
    rig = await startLoginRig({
      publicClient: true,
      claimsInIdToken: true,
      extraProfileClaims: ['realm_access'],
      env: { OIDC_GROUPS_CLAIM: 'realm_access.roles', OIDC_ADMIN_GROUPS: 'plant-admin' },
      accounts: new Map([
        [
          'keycloaky',
          {
            email: 'kc@example.org',
            email_verified: true,
            name: 'Key Cloak',
            preferred_username: 'kc',
            realm_access: { roles: ['plant-admin'] },
          },
        ],
      ]),
    });
  });
  afterAll(() => rig.close());

  it('signs in with PKCE alone, reads nickname from preferred_username and groups from a dotted path', async () => {
    const browser = new TestBrowser();
    const landed = await rig.signIn(browser, 'keycloaky', '/auth/me');
    expect(landed.status).toBe(200);
    expect(JSON.parse(landed.body)).toMatchObject({
      email: 'kc@example.org',
      name: 'Key Cloak',
      nickname: 'kc',
      admin: true,
    });
  });
});
