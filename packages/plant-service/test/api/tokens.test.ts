/**
 * Personal API tokens over real HTTP: created from a session, used as `Authorization: Bearer`
 * for writes without any Origin, listed without the secret, revoked and expired (401), forged
 * (401), acting with the owner's current roles (a re-login that drops a group takes the write
 * away), expiring by default and never later than TOKEN_MAX_DAYS, and the secret never written to
 * a log line.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevAccountClaims } from '../../src/dev-idp/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

const TOKEN = /^plants_pat_[0-9a-f]{32}[A-Za-z0-9_-]{43}$/;

interface Created {
  id: string;
  name: string;
  token: string;
  expires_at: string;
  last_used_at: string | null;
}

describe('API tokens (test sessions)', () => {
  let t: TestApp;
  let base: string;
  let origin: string;
  let editor: string;
  let other: string;
  let admin: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(
      { WRITE_ACCESS: 'groups' },
      { logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = t.config.auth.publicUrl;
    editor = await t.cookie({ editor: true });
    other = await t.cookie({ editor: true });
    admin = await t.cookie({ admin: true });
  });
  afterAll(() => t.close());

  async function create(cookie: string, body: Record<string, unknown>) {
    const res = await fetch(`${base}/api/v1/tokens`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Created & { error?: string } };
  }

  let n = 0;
  function writeFamily(headers: Record<string, string>) {
    n += 1;
    return fetch(`${base}/api/v1/families`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name_scientific: `Tokenaceae ${n}` }),
    });
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('creates a prefixed secret once and accepts it for a write without Origin', async () => {
    const { status, body } = await create(editor, { name: 'nightly import' });
    expect(status).toBe(200);
    expect(body.token).toMatch(TOKEN);
    expect(body.name).toBe('nightly import');
    // No expiry asked for: TOKEN_DEFAULT_DAYS (90) from now.
    expect(Math.abs(Date.parse(body.expires_at) - (Date.now() + 90 * 86_400_000))).toBeLessThan(60_000);

    const res = await writeFamily(bearer(body.token));
    expect(res.status).toBe(200);
    // Bearer requests have no ambient credential: a foreign Origin does not matter.
    expect((await writeFamily({ ...bearer(body.token), origin: 'https://evil.example' })).status).toBe(200);
    // A cookie beside the token is not what authenticates, so it triggers no Origin check either.
    const beside = await writeFamily({
      ...bearer(body.token),
      cookie: editor,
      origin: 'https://evil.example',
    });
    expect(beside.status).toBe(200);
    expect((await writeFamily({ cookie: editor, origin: 'https://evil.example' })).status).toBe(403);
    // Scheme is case-insensitive.
    expect((await writeFamily({ authorization: `bearer ${body.token}` })).status).toBe(200);
  });

  it('lists tokens with last use, never the secret; admins list everyone with all=true', async () => {
    const { body: created } = await create(editor, { name: 'listed' });
    await writeFamily(bearer(created.token));
    const res = await fetch(`${base}/api/v1/tokens`, { headers: bearer(created.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain(created.token);
    expect(text).not.toContain(created.token.slice(-43));
    const list = JSON.parse(text) as { data: (Created & { user_email: string })[] };
    const mine = list.data.find((x) => x.id === created.id)!;
    expect(mine).toMatchObject({ name: 'listed', expires_at: created.expires_at });
    expect(mine.last_used_at).not.toBeNull();
    expect(Object.keys(mine).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'user_email', 'user_id'].sort(),
    );

    const { body: theirs } = await create(other, { name: 'theirs' });
    const ownOnly = (await (
      await fetch(`${base}/api/v1/tokens`, { headers: { cookie: editor } })
    ).json()) as {
      data: Created[];
    };
    expect(ownOnly.data.map((x) => x.id)).not.toContain(theirs.id);
    expect((await fetch(`${base}/api/v1/tokens?all=true`, { headers: { cookie: editor } })).status).toBe(403);
    const all = (await (
      await fetch(`${base}/api/v1/tokens?all=true`, { headers: { cookie: admin } })
    ).json()) as {
      data: Created[];
    };
    expect(all.data.map((x) => x.id)).toEqual(expect.arrayContaining([created.id, theirs.id]));
    expect(JSON.stringify(all)).not.toContain(theirs.token);
  });

  it('refuses a forged, malformed or revoked token with 401, even beside a valid cookie', async () => {
    const { body } = await create(editor, { name: 'to revoke' });
    const forged = `${body.token.slice(0, -43)}${'A'.repeat(43)}`;
    for (const token of [forged, 'plants_pat_nope', `${body.token}x`]) {
      const res = await writeFamily({ ...bearer(token), cookie: editor, origin });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/invalid API token/);
    }

    // Someone else's token: 404 for a non-admin, and it keeps working.
    const foreign = await fetch(`${base}/api/v1/tokens/${body.id}`, {
      method: 'DELETE',
      headers: { cookie: other, origin },
    });
    expect(foreign.status).toBe(404);
    expect((await writeFamily(bearer(body.token))).status).toBe(200);

    const revoked = await fetch(`${base}/api/v1/tokens/${body.id}`, {
      method: 'DELETE',
      headers: bearer(body.token),
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ deleted: true });
    expect((await writeFamily(bearer(body.token))).status).toBe(401);
    expect((await fetch(`${base}/api/v1/tokens`, { headers: bearer(body.token) })).status).toBe(401);
  });

  it("lets an admin revoke anyone's token", async () => {
    const { body } = await create(other, { name: 'admin revokes' });
    const res = await fetch(`${base}/api/v1/tokens/${body.id}`, {
      method: 'DELETE',
      headers: { cookie: admin, origin },
    });
    expect(res.status).toBe(200);
    expect((await writeFamily(bearer(body.token))).status).toBe(401);
  });

  it('validates the expiry and refuses an expired token', async () => {
    expect((await create(editor, { name: 'past', expires_at: '2020-01-01T00:00:00Z' })).status).toBe(400);
    const far = await create(editor, { name: 'far', expires_at: '2999-01-01T00:00:00Z' });
    expect(far.status).toBe(400);
    expect(far.body.error).toMatch(/^expires_at/);
    const day = 86_400_000;
    const tooLong = await create(editor, {
      name: 'a year and a day',
      expires_at: new Date(Date.now() + 366 * day).toISOString(),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ field: 'expires_at', max_days: 365 });
    expect(tooLong.body.error).toMatch(/365 days.*TOKEN_MAX_DAYS/);
    const longest = await create(editor, {
      name: 'almost a year',
      expires_at: new Date(Date.now() + 364 * day).toISOString(),
    });
    expect(longest.status).toBe(200);
    // Every token expires: asking for none is refused, naming the field.
    const never = await create(editor, { name: 'never', expires_at: null });
    expect(never.status).toBe(400);
    expect(never.body.error).toMatch(/expires_at/);
    expect((await create(editor, { name: '' })).status).toBe(400);
    expect((await create(editor, { name: 'x', scope: 'all' })).status).toBe(400);

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const { status, body } = await create(editor, { name: 'expiring', expires_at: soon });
    expect(status).toBe(200);
    expect(new Date(body.expires_at!).toISOString()).toBe(soon);
    expect((await writeFamily(bearer(body.token))).status).toBe(200);
    // Time passes: move the expiry into the past in the database.
    await t.database.db.execute(
      sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${body.id}`,
    );
    expect((await writeFamily(bearer(body.token))).status).toBe(401);
  });

  it('acts with the roles of its owner, and cannot create tokens', async () => {
    const reader = await t.cookie({});
    const { body } = await create(reader, { name: 'reader' });
    const res = await writeFamily(bearer(body.token));
    expect(res.status).toBe(403);
    const me = (await (await fetch(`${base}/auth/me`, { headers: bearer(body.token) })).json()) as {
      admin: boolean;
    };
    expect(me.admin).toBe(false);

    const viaToken = await fetch(`${base}/api/v1/tokens`, {
      method: 'POST',
      headers: { ...bearer(body.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'child' }),
    });
    expect(viaToken.status).toBe(403);
  });

  it('never writes a secret to the log', async () => {
    const { body } = await create(editor, { name: 'logged?' });
    await writeFamily(bearer(body.token));
    await writeFamily(bearer(`${body.token.slice(0, -1)}A`));
    await fetch(`${base}/api/v1/tokens`, { headers: bearer(body.token) });
    const log = logLines.join('');
    expect(log).toContain('/api/v1/tokens');
    expect(log).not.toContain(body.token.slice(-43));
  });
});

describe('API token lifetimes from the configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TOKEN_DEFAULT_DAYS: '7', TOKEN_MAX_DAYS: '30' });
  });
  afterAll(() => t.close());

  it('gives TOKEN_DEFAULT_DAYS by default and refuses more than TOKEN_MAX_DAYS', async () => {
    const cookie = await t.cookie();
    const create = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/tokens', headers: { cookie }, payload: body });
    const plain = await create({ name: 'weekly' });
    expect(plain.statusCode).toBe(200);
    expect(Math.abs(Date.parse(plain.json().expires_at) - (Date.now() + 7 * 86_400_000))).toBeLessThan(
      60_000,
    );
    const long = await create({
      name: 'monthly',
      expires_at: new Date(Date.now() + 31 * 86_400_000).toISOString(),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ field: 'expires_at', max_days: 30 });
  });
});

describe('API tokens follow role changes made at login', () => {
  let rig: LoginRig;
  const changing: DevAccountClaims = {
    email: 'changing@example.org',
    email_verified: true,
    name: 'Changing',
    groups: ['growers'],
  };

  beforeAll(async () => {
    rig = await startLoginRig({
      env: { WRITE_ACCESS: 'groups', OIDC_EDITOR_GROUPS: 'growers' },
      accounts: new Map([['changing', changing]]),
    });
  });
  afterAll(() => rig.close());

  it('loses the write as soon as a new login drops the editor group', async () => {
    const browser = rig.browser();
    await rig.signIn(browser, 'changing');
    const created = await browser.request(`${rig.url}/api/v1/tokens`, {
      method: 'POST',
      headers: { origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'planner backend' }),
    });
    expect(created.status).toBe(200);
    const { token } = JSON.parse(created.body) as Created;

    const write = (name: string) =>
      fetch(`${rig.url}/api/v1/families`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name_scientific: name }),
      });
    expect((await write('Rolaceae')).status).toBe(200);

    changing.groups = ['visitors'];
    await rig.signIn(rig.browser(), 'changing');
    expect((await write('Rolaceae Secunda')).status).toBe(403);

    changing.groups = ['growers'];
    await rig.signIn(rig.browser(), 'changing');
    expect((await write('Rolaceae Tertia')).status).toBe(200);
  });
});
