/**
 * User administration: an administrator lists users and disables one, which ends their sessions
 * and revokes their API tokens at once and refuses their next sign-in (403) at the real provider
 * until they are enabled again; the act is recorded (when, by whom) and logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevAccountClaims } from '../../src/dev-idp/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

interface UserRow {
  id: string;
  email: string;
  disabled_at: string | null;
  disabled_by: string | null;
}

describe('disabling a user (real OIDC provider)', () => {
  let rig: LoginRig;
  const person = (email: string, groups: string[]): DevAccountClaims => ({
    email,
    email_verified: true,
    name: email.split('@')[0],
    groups,
  });

  beforeAll(async () => {
    rig = await startLoginRig({
      env: { OIDC_ADMIN_GROUPS: 'garden-admins', OIDC_EDITOR_GROUPS: 'growers' },
      accounts: new Map([
        ['boss', person('boss@example.org', ['garden-admins'])],
        ['mallory', person('mallory@example.org', ['growers'])],
      ]),
    });
  });
  afterAll(() => rig.close());

  it('ends the sessions and tokens at once, refuses the sign-in until enabled, and records who did it', async () => {
    const admin = rig.browser();
    await rig.signIn(admin, 'boss');
    const mallory = rig.browser();
    await rig.signIn(mallory, 'mallory');
    const second = rig.browser();
    await rig.signIn(second, 'mallory');
    const created = await mallory.request(`${rig.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'script' }),
    });
    const bearer = { authorization: `Bearer ${JSON.parse(created.body).token}` };
    const tokenWrite = () =>
      fetch(`${rig.url}/api/v1/families`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ name_scientific: `Disabledaceae ${Math.random()}` }),
      });
    expect((await tokenWrite()).status).toBe(200);

    // Only administrators see the users.
    expect((await mallory.request(`${rig.url}/api/v1/users`)).status).toBe(403);
    const listed = await admin.request(`${rig.url}/api/v1/users`);
    expect(listed.status).toBe(200);
    const users = (JSON.parse(listed.body) as { data: UserRow[] }).data;
    const target = users.find((u) => u.email === 'mallory@example.org')!;
    const boss = users.find((u) => u.email === 'boss@example.org')!;
    expect(target.disabled_at).toBeNull();

    // Not an administrator: 403, and nothing changes.
    const refused = await mallory.request(`${rig.url}/api/v1/users/${boss.id}/disable`, {
      method: 'POST',
      headers: { origin: rig.url },
    });
    expect(refused.status).toBe(403);

    const disabled = await admin.request(`${rig.url}/api/v1/users/${target.id}/disable`, {
      method: 'POST',
      headers: { origin: rig.url },
    });
    expect(disabled.status).toBe(200);
    const record = JSON.parse(disabled.body);
    expect(record).toMatchObject({
      id: target.id,
      disabled_by: boss.id,
      sessions_ended: 2,
      tokens_revoked: 1,
    });
    expect(Date.now() - Date.parse(record.disabled_at)).toBeLessThan(60_000);

    // Both sessions and the token: 401 from the next request on.
    expect((await mallory.request(`${rig.url}/auth/me`)).status).toBe(401);
    expect((await second.request(`${rig.url}/auth/me`)).status).toBe(401);
    expect((await tokenWrite()).status).toBe(401);
    // A sign-in at the provider still succeeds there, but not here.
    const again = rig.browser();
    const page = await rig.signIn(again, 'mallory');
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body).error).toMatch(/disabled/);
    expect(again.cookie('id')).toBeUndefined();

    // Disabling again keeps the first record; the admin cannot disable themselves.
    const twice = await admin.request(`${rig.url}/api/v1/users/${target.id}/disable`, {
      method: 'POST',
      headers: { origin: rig.url },
    });
    expect(JSON.parse(twice.body)).toMatchObject({ disabled_at: record.disabled_at, sessions_ended: 0 });
    const self = await admin.request(`${rig.url}/api/v1/users/${boss.id}/disable`, {
      method: 'POST',
      headers: { origin: rig.url },
    });
    expect(self.status).toBe(409);

    const enabled = await admin.request(`${rig.url}/api/v1/users/${target.id}/enable`, {
      method: 'POST',
      headers: { origin: rig.url },
    });
    expect(enabled.status).toBe(200);
    expect(JSON.parse(enabled.body)).toMatchObject({ disabled_at: null, disabled_by: null });
    const back = rig.browser();
    await rig.signIn(back, 'mallory');
    expect((await back.request(`${rig.url}/auth/me`)).status).toBe(200);
    // The revoked token stays revoked.
    expect((await tokenWrite()).status).toBe(401);
  });
});

describe('user administration (test sessions)', () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      {},
      { logger: { level: 'info', stream: { write: (l: string) => logLines.push(l) } } },
    );
  });
  afterAll(() => t.close());

  it('answers 404 for an unknown user and 401 without a credential, and logs who disabled whom', async () => {
    const admin = await t.cookie({ admin: true });
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const action of ['disable', 'enable']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${unknown}/${action}`,
        headers: { cookie: admin },
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: '/api/v1/users' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/v1/users', headers: { cookie: await t.cookie() } })).statusCode,
    ).toBe(403);

    const editor = await t.cookie();
    const me = (await t.app.inject({ url: '/auth/me', headers: { cookie: editor } })).json() as {
      id: string;
    };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${me.id}/disable`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'user disabled');
    expect(line).toMatchObject({ user: me.id, sessions: 1, tokens: 0 });
    expect(typeof line.by).toBe('string');
  });
});
