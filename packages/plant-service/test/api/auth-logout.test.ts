/**
 * Logout stays the spec's GET, but a request from another site (a foreign Origin or Referer, or
 * Sec-Fetch-Site cross-site / same-site without either) does not end the session: it gets a page
 * whose button POSTs back, and that POST passes the same Origin check as every cookie write.
 * Signed in at the real provider; requests over real HTTP with the headers a browser sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readForm, type TestBrowser } from '../helpers/browser.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

describe('logout', () => {
  let rig: LoginRig;
  beforeAll(async () => {
    rig = await startLoginRig();
  });
  afterAll(() => rig.close());

  const signedIn = async (browser: TestBrowser) =>
    (await browser.request(`${rig.url}/auth/me`)).status === 200;
  const logout = (browser: TestBrowser, headers: Record<string, string>) =>
    browser.request(`${rig.url}/auth/oidc/logout`, { headers });

  it('shows a confirmation page to a request from another site, and the session lives on', async () => {
    const browser = rig.browser();
    await rig.signIn(browser, 'editor');
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'same-site' },
      { referer: 'https://evil.example/page' },
      { origin: 'https://evil.example' },
      // A foreign Referer outweighs a claim of same-origin.
      { referer: 'https://evil.example/', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of foreign) {
      const page = await logout(browser, headers);
      expect(page.status, JSON.stringify(headers)).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('set-cookie')).toBeNull();
      const form = readForm(page);
      expect(form).toMatchObject({ method: 'POST' });
      expect(form.action.href).toBe(`${rig.url}/auth/oidc/logout`);
      expect(await signedIn(browser)).toBe(true);
    }
  });

  it('ends the session when the page is confirmed from this site, not when a foreign page posts', async () => {
    const browser = rig.browser();
    await rig.signIn(browser, 'editor');
    const page = await logout(browser, { 'sec-fetch-site': 'cross-site' });
    const form = readForm(page);

    // A foreign page posting the same form: refused by the Origin check, still signed in.
    const forged = await browser.request(form.action, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.status).toBe(403);
    expect(await signedIn(browser)).toBe(true);

    const list = async () => (await fetch(`${rig.url}/api/v1/families`)).headers.get('x-cache');
    await list();
    expect(await list()).toBe('HIT');

    // The button on the page: the browser sends this site's Origin.
    const confirmed = await browser.request(form.action, {
      method: 'POST',
      headers: { origin: rig.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('/');
    expect(browser.cookie('id')).toBeUndefined();
    expect(await signedIn(browser)).toBe(false);
    // Ending a session changes no catalogue data: the cached list is still served.
    expect(await list()).toBe('HIT');
  });

  it('ends the session at once for a same-origin request or one naming no origin', async () => {
    const own: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', referer: `${rig.url}/species/x` },
      { 'sec-fetch-site': 'none' },
      { referer: `${rig.url}/` },
      {},
    ];
    for (const headers of own) {
      const browser = rig.browser();
      await rig.signIn(browser, 'editor');
      const res = await logout(browser, headers);
      expect(res.status, JSON.stringify(headers)).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect(await signedIn(browser)).toBe(false);
    }
  });

  it('just redirects a cross-site request without a session', async () => {
    const res = await logout(rig.browser(), { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(302);
  });
});
