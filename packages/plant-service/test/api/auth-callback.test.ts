/**
 * The callback under attack or failure: state mismatch, unknown or expired state,
 * replayed callback, replayed code, tampered code, iss or PKCE, the provider's error. Each must
 * answer 400 or 401 with `{error}`, never 500, and create no session.
 */
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcLogins, sessions } from '../../src/db/tables.js';
import { readForm, TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

let rig: LoginRig;

beforeAll(async () => {
  rig = await startLoginRig();
});
afterAll(() => rig.close());

async function sessionCount(): Promise<number> {
  const [row] = await rig.t.database.db.select({ n: count() }).from(sessions);
  return row!.n;
}

/** Opens the callback URL and checks the refusal: status, `{error}`, no cookie, no new session. */
async function expectRefused(browser: TestBrowser, callback: URL, status: 400 | 401, error: RegExp) {
  const before = await sessionCount();
  const page = await browser.request(callback);
  expect(page.status).toBe(status);
  expect(JSON.parse(page.body)).toMatchObject({ error: expect.stringMatching(error) });
  expect(browser.cookie('id')).toBeUndefined();
  expect(await sessionCount()).toBe(before);
}

function withParam(url: URL, key: string, value: string | null): URL {
  const copy = new URL(url);
  if (value === null) copy.searchParams.delete(key);
  else copy.searchParams.set(key, value);
  return copy;
}

describe('OIDC callback', () => {
  it('refuses a state that differs from the one this browser started with', async () => {
    const browser = new TestBrowser();
    const callback = await rig.authorize(browser, 'editor');
    await expectRefused(browser, withParam(callback, 'state', 'x'.repeat(43)), 400, /state does not match/);
  });

  it("refuses someone else's callback URL (login CSRF): this browser never started that login", async () => {
    const attacker = new TestBrowser();
    const callback = await rig.authorize(attacker, 'editor');
    const victim = new TestBrowser();
    await expectRefused(victim, callback, 400, /state does not match/);
    // The login is still pending for the browser that started it.
    expect((await attacker.request(callback)).status).toBe(302);
  });

  it('refuses an unknown state even when cookie and URL agree', async () => {
    const browser = new TestBrowser();
    const callback = await rig.authorize(browser, 'editor');
    const forged = 'f'.repeat(43);
    browser.setCookie('127.0.0.1', 'oidc_login', forged, '/auth/oidc/callback');
    await expectRefused(browser, withParam(callback, 'state', forged), 400, /unknown or expired login state/);
  });

  it('refuses a callback without state, and one without code', async () => {
    const browser = new TestBrowser();
    const callback = await rig.authorize(browser, 'editor');
    await expectRefused(browser, withParam(callback, 'state', null), 400, /^state: is required/);
    const again = new TestBrowser();
    const second = await rig.authorize(again, 'editor');
    await expectRefused(again, withParam(second, 'code', null), 400, /^code: is required/);
  });

  it('refuses a replayed callback: a state is used once', async () => {
    const browser = new TestBrowser();
    const callback = await rig.authorize(browser, 'editor');
    const state = browser.cookie('oidc_login')!.value;
    expect((await browser.request(callback)).status).toBe(302);
    const replay = new TestBrowser();
    replay.setCookie('127.0.0.1', 'oidc_login', state, '/auth/oidc/callback');
    await expectRefused(replay, callback, 400, /unknown or expired login state/);
  });

  it('refuses a replayed code under a fresh state: the provider rejects the used code', async () => {
    const first = new TestBrowser();
    const used = await rig.authorize(first, 'editor');
    expect((await first.request(used)).status).toBe(302);

    const browser = new TestBrowser();
    const fresh = await rig.authorize(browser, 'editor');
    const replayed = withParam(fresh, 'code', used.searchParams.get('code'));
    await expectRefused(browser, replayed, 401, /did not confirm the login/);
  });

  it("refuses another login's unused code: PKCE verifier and nonce do not match", async () => {
    const other = new TestBrowser();
    const othersCallback = await rig.authorize(other, 'admin');
    const browser = new TestBrowser();
    const mine = await rig.authorize(browser, 'editor');
    const swapped = withParam(mine, 'code', othersCallback.searchParams.get('code'));
    await expectRefused(browser, swapped, 401, /did not confirm the login/);
  });

  it('refuses a tampered code and a tampered iss', async () => {
    const a = new TestBrowser();
    const callback = await rig.authorize(a, 'editor');
    const code = callback.searchParams.get('code')!;
    await expectRefused(a, withParam(callback, 'code', `${code.slice(0, -2)}xy`), 401, /did not confirm/);

    const b = new TestBrowser();
    const second = await rig.authorize(b, 'editor');
    expect(second.searchParams.get('iss')).toBeTruthy();
    await expectRefused(b, withParam(second, 'iss', 'https://evil.example'), 401, /did not confirm/);
  });

  it("refuses the provider's error response (the user cancels at the consent page)", async () => {
    const browser = new TestBrowser();
    const isCallback = (u: URL) => u.origin === rig.url && u.pathname === '/auth/oidc/callback';
    const loginPage = await browser.navigate(`${rig.url}/auth/oidc/login`);
    const consent = await browser.submit(readForm(loginPage), { login: 'editor', password: 'x' });
    const abort = /href="([^"]*\/abort)"/.exec(consent.body)?.[1];
    expect(abort).toBeTruthy();
    const cancelled = await browser.navigate(new URL(abort!, consent.url), {}, isCallback);
    const callback = cancelled.stoppedAt!;
    expect(callback.searchParams.get('error')).toBe('access_denied');
    await expectRefused(browser, callback, 401, /refused the login: access_denied/);
  });

  it('refuses a login that took longer than 10 minutes', async () => {
    const browser = new TestBrowser();
    const callback = await rig.authorize(browser, 'editor');
    await rig.t.database.db.update(oidcLogins).set({ expires_at: new Date(Date.now() - 1000) });
    await expectRefused(browser, callback, 400, /unknown or expired login state/);
  });
});
