/**
 * Login in a real browser: headless Chromium (Debian's, driven by playwright-core) signs in
 * through the development provider's pages exactly as `npm run dev` sets it up, sees /auth/me,
 * writes from the API docs page (whose CSP must let swagger-ui run), and logs out; a logout link on
 * another site only shows the confirmation page, whose button signs out.
 * Needs /usr/bin/chromium (Debian package `chromium`; .ci/run installs it).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { startDevLogin } from '../../src/dev-idp/dev-login.js';
import type { DevIdp } from '../../src/dev-idp/provider.js';
import { testDatabase } from '../helpers/database.js';

// The flags this machine's notes give for Chromium headless as root on a closed network.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server: http.Server;
let url: string;
let idp: DevIdp;
let app: FastifyInstance;
let database: Database;
let browser: Browser;

beforeAll(async () => {
  let handler: http.RequestListener = (_q, s) => s.writeHead(503).end();
  server = http.createServer((q, s) => handler(q, s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;

  const env = {
    DEV_IDP: 'true',
    DEV_IDP_PORT: '0',
    PORT: String(port),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
  };
  const started = await startDevLogin(loadConfig(env), env, (await import('pino')).pino({ level: 'silent' }));
  idp = started.idp;
  database = await testDatabase();
  app = await buildApp({ config: started.config, database });
  await app.ready();
  handler = (q, s) => app.routing(q, s);

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  server?.close();
  await app?.close();
  await idp?.close();
  await database?.close();
});

async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto(`${url}/auth/oidc/login?return_to=/auth/me`);
  expect(page.url().startsWith(idp.issuer)).toBe(true);
  await page.fill('input[name=login]', 'admin');
  await page.fill('input[name=password]', 'any password');
  await page.click('button[type=submit]');
  // The consent page: one button, "Continue".
  await page.click('button[type=submit]');
  await page.waitForURL(`${url}/auth/me`);
}

describe('sign-in in headless Chromium', () => {
  it('signs in as the demo admin through the dev provider, sees /auth/me, writes from /api/docs, logs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    // Wait until discovery of the dev provider has happened (it starts with the app).
    await expect
      .poll(async () => (await fetch(`${url}/auth/oidc/login`, { redirect: 'manual' })).status)
      .toBe(302);

    await signInAsAdmin(page);
    const me = JSON.parse((await page.textContent('body')) ?? '');
    expect(me).toMatchObject({ email: 'admin@example.org', name: 'Demo Admin', admin: true });

    const cookies = await context.cookies(url);
    expect(cookies.find((c) => c.name === 'id')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });

    // The docs page renders under the CSP, and a write from it carries Origin, so it passes.
    await page.goto(`${url}/api/docs/`);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/v1/families', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name_scientific: 'Boraginaceae' }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    expect(problems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);

    await page.goto(`${url}/auth/oidc/logout`);
    // Logout redirects to `/`, the home page.
    expect(new URL(page.url()).pathname).toBe('/');
    const after = await page.evaluate(async () => (await fetch('/auth/me')).status);
    expect(after).toBe(401);
    await context.close();
  });

  it('asks for confirmation when another site links to logout, and signs out on the button', async () => {
    // Another site: localhost is a different site from 127.0.0.1 to the browser.
    const foreign = http.createServer((_q, s) =>
      s
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><a id="out" href="${url}/auth/oidc/logout">win a prize</a>`),
    );
    foreign.listen(0, '127.0.0.1');
    await once(foreign, 'listening');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signInAsAdmin(page);
      await page.goto(`http://localhost:${(foreign.address() as AddressInfo).port}/`);
      await page.click('#out');
      await page.waitForURL(`${url}/auth/oidc/logout`);
      expect(await page.textContent('h1')).toMatch(/Sign out/);
      const still = await page.evaluate(async () => (await fetch('/auth/me')).status);
      expect(still).toBe(200);

      await page.click('button[type=submit]');
      await page.waitForURL(`${url}/`);
      const after = await page.evaluate(async () => (await fetch('/auth/me')).status);
      expect(after).toBe(401);
    } finally {
      await context.close();
      foreign.closeAllConnections();
      foreign.close();
    }
  });
});
