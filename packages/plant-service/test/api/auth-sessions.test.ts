/**
 * Session lifetime: a sliding idle timeout and an absolute maximum (SESSION_IDLE_DAYS,
 * SESSION_MAX_DAYS); expired sessions are rejected and purged.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId, purgeExpiredSessions } from '../../src/auth/session-store.js';
import { sessions } from '../../src/db/tables.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const DAY = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_DAYS: '2', SESSION_MAX_DAYS: '5' });
});
afterAll(() => t.close());

const tokenOf = (cookie: string) => cookie.slice('id='.length);

async function age(cookie: string, set: { last_seen_at?: Date; expires_at?: Date }) {
  await t.database.db
    .update(sessions)
    .set(set)
    .where(eq(sessions.id_hash, hashSessionId(tokenOf(cookie))));
}

async function row(cookie: string) {
  const [r] = await t.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.id_hash, hashSessionId(tokenOf(cookie))));
  return r;
}

const me = (cookie: string) => t.app.inject({ url: '/auth/me', headers: { cookie } });

describe('session lifetime', () => {
  it('ends a session idle for longer than SESSION_IDLE_DAYS', async () => {
    const cookie = await t.cookie();
    await age(cookie, { last_seen_at: new Date(Date.now() - 2 * DAY - 60_000) });
    const res = await me(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it('slides: a session used within the idle timeout lives on, and its last use moves', async () => {
    const cookie = await t.cookie();
    await age(cookie, { last_seen_at: new Date(Date.now() - 2 * DAY + 3_600_000) });
    expect((await me(cookie)).statusCode).toBe(200);
    expect(Date.now() - (await row(cookie))!.last_seen_at.getTime()).toBeLessThan(60_000);
  });

  it('ends a session at its absolute expiry however recently it was used', async () => {
    const cookie = await t.cookie();
    const created = (await row(cookie))!;
    // Absolute expiry is set at login from SESSION_MAX_DAYS.
    expect(created.expires_at.getTime() - created.created_at.getTime()).toBeGreaterThan(5 * DAY - 60_000);
    expect(created.expires_at.getTime() - created.created_at.getTime()).toBeLessThan(5 * DAY + 60_000);
    await age(cookie, { expires_at: new Date(Date.now() - 1000), last_seen_at: new Date() });
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('purges idle and expired sessions and keeps live ones', async () => {
    const idle = await t.cookie();
    const expired = await t.cookie();
    const live = await t.cookie();
    await age(idle, { last_seen_at: new Date(Date.now() - 3 * DAY) });
    await age(expired, { expires_at: new Date(Date.now() - 1000) });
    const purged = await purgeExpiredSessions(t.database.db, {
      idleMs: t.config.sessionIdleMs,
      maxMs: t.config.sessionMaxMs,
    });
    expect(purged).toBeGreaterThanOrEqual(2);
    expect(await row(idle)).toBeUndefined();
    expect(await row(expired)).toBeUndefined();
    expect(await row(live)).toBeDefined();
    expect((await me(live)).statusCode).toBe(200);
  });

  it('answers 401 for a malformed or unknown cookie', async () => {
    expect((await me('id=nonsense')).statusCode).toBe(401);
    expect((await me(`id=${'A'.repeat(43)}`)).statusCode).toBe(401);
  });
});
