/**
 * Roles lapse when the identity provider has not confirmed them for ROLE_REFRESH_SECONDS: an
 * administrator removed at the provider stops being one within that time, through a session
 * (which ends) and through an API token (which acts as a reader), until the next sign-in asks the
 * provider again. Time passing is simulated by moving the confirmation back in the database.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../src/auth/session-store.js';
import { users } from '../../src/db/tables.js';
import type { DevAccountClaims } from '../../src/dev-idp/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

const HOUR = 3_600_000;

describe('roles confirmed by the provider (real OIDC provider)', () => {
  let rig: LoginRig;
  const boss: DevAccountClaims = {
    email: 'boss@example.org',
    email_verified: true,
    name: 'Boss',
    groups: ['garden-admins', 'growers'],
  };

  beforeAll(async () => {
    rig = await startLoginRig({
      env: {
        ROLE_REFRESH_SECONDS: '3600',
        OIDC_ADMIN_GROUPS: 'garden-admins',
        OIDC_EDITOR_GROUPS: 'growers',
      },
      accounts: new Map([['boss', boss]]),
    });
  });
  afterAll(() => rig.close());

  const backdate = (ms: number) =>
    rig.t.database.db
      .update(users)
      .set({ roles_checked_at: sql`now() - make_interval(secs => ${ms / 1000})` })
      .where(eq(users.email, 'boss@example.org'));

  async function meWith(headers: Record<string, string>) {
    const res = await fetch(`${rig.url}/auth/me`, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const meIn = async (browser: TestBrowser) => {
    const page = await browser.request(`${rig.url}/auth/me`);
    return { status: page.status, body: JSON.parse(page.body) as Record<string, unknown> };
  };

  it('stops treating a removed admin as admin once ROLE_REFRESH_SECONDS have passed, until the next sign-in', async () => {
    const browser = rig.browser();
    await rig.signIn(browser, 'boss');
    const created = await browser.request(`${rig.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin script' }),
    });
    expect(created.status).toBe(200);
    const bearer = { authorization: `Bearer ${JSON.parse(created.body).token}` };
    const deleteFamily = async () => {
      const made = await fetch(`${rig.url}/api/v1/families`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ name_scientific: `Lapsaceae ${Math.random()}` }),
      });
      if (made.status !== 200) return made;
      const { slug } = (await made.json()) as { slug: string };
      return fetch(`${rig.url}/api/v1/families/${slug}`, { method: 'DELETE', headers: bearer });
    };
    expect((await deleteFamily()).status).toBe(200);

    // The provider takes the admin group away; nothing tells this service.
    boss.groups = ['growers'];
    // Within the interval the roles confirmed at the sign-in still hold.
    await backdate(HOUR - 60_000);
    expect((await meIn(browser)).body).toMatchObject({ admin: true, roles_current: true });
    expect((await meWith(bearer)).body).toMatchObject({ admin: true, roles_current: true });

    // Past it: the session ends and the token acts as a reader.
    await backdate(HOUR + 1000);
    expect((await meIn(browser)).status).toBe(401);
    expect((await meWith(bearer)).body).toMatchObject({
      admin: false,
      can_write: false,
      roles_current: false,
    });
    const refused = await deleteFamily();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/roles lapsed.*sign in again/);

    // Signing in asks the provider again: an editor now, not an admin.
    await rig.signIn(rig.browser(), 'boss');
    expect((await meWith(bearer)).body).toMatchObject({ admin: false, can_write: true, roles_current: true });
    const asEditor = await deleteFamily();
    expect(asEditor.status).toBe(403);
    expect(((await asEditor.json()) as { error: string }).error).toMatch(/only administrators/);
  });
});

describe('role refresh interval', () => {
  let t: TestApp;
  let never: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    never = await createTestApp({ ROLE_REFRESH_SECONDS: '0' });
  });
  afterAll(async () => {
    await t.close();
    await never.close();
  });

  const age = (app: TestApp, cookie: string, hours: number) =>
    app.database.db.execute(
      sql`update users set roles_checked_at = now() - make_interval(hours => ${hours})
          where id = (select user_id from sessions where id_hash = ${hashSessionId(cookie.slice('id='.length))})`,
    );
  const me = (app: TestApp, cookie: string) => app.app.inject({ url: '/auth/me', headers: { cookie } });

  it('is one day by default', async () => {
    const fresh = await t.cookie({ admin: true });
    await age(t, fresh, 23);
    expect((await me(t, fresh)).statusCode).toBe(200);
    const stale = await t.cookie({ admin: true });
    await age(t, stale, 25);
    expect((await me(t, stale)).statusCode).toBe(401);
  });

  it('never lapses with ROLE_REFRESH_SECONDS=0', async () => {
    const cookie = await never.cookie({ admin: true });
    await age(never, cookie, 24 * 365);
    const res = await me(never, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ admin: true, roles_current: true });
  });
});
