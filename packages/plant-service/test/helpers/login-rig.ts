/**
 * A real OIDC setup for tests: the embedded oidc-provider on 127.0.0.1 (the same one
 * `npm run dev` uses), the app listening on its own 127.0.0.1 port and configured for it, and
 * helpers that walk a TestBrowser through the provider's login and consent forms over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CALLBACK_PATH } from '../../src/auth/auth-config.js';
import { type DevAccountClaims, demoAccounts } from '../../src/dev-idp/accounts.js';
import { type DevIdp, startDevIdp } from '../../src/dev-idp/provider.js';
import { createTestApp, type TestApp } from './app.js';
import { type Page, readForm, TestBrowser } from './browser.js';

export interface LoginRigOptions {
  /** More environment for the app (ADMIN_EMAILS, WRITE_ACCESS, ...). */
  env?: Record<string, string>;
  /** Default: the dev provider's demo admin and editor. */
  accounts?: Map<string, DevAccountClaims>;
  /** No client secret: token endpoint auth `none`, PKCE only. */
  publicClient?: boolean;
  claimsInIdToken?: boolean;
  extraProfileClaims?: string[];
  /** The app's PUBLIC_URL when it is not where it listens (browsers from rig.browser() map it). */
  publicUrl?: string;
  /** Start the app while nothing listens on the provider's port; call startIdp() later. */
  idpDown?: boolean;
}

export interface LoginRig {
  t: TestApp;
  /** The app's PUBLIC_URL: where it listens, unless options.publicUrl said otherwise. */
  url: string;
  /** A browser that reaches PUBLIC_URL where the app listens. */
  browser(): TestBrowser;
  accounts: Map<string, DevAccountClaims>;
  /** Starts the provider on its port (after idpDown). */
  startIdp(): Promise<void>;
  /** Resolves once /auth/oidc/login stops answering 503. */
  waitForLogin(timeoutMs?: number): Promise<void>;
  /** Login page → provider's login and consent forms → stops before the callback; returns its URL. */
  authorize(browser: TestBrowser, login: string, returnTo?: string): Promise<URL>;
  /** The whole login, callback included; returns the page it ends on. */
  signIn(browser: TestBrowser, login: string, returnTo?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startLoginRig(options: LoginRigOptions = {}): Promise<LoginRig> {
  // The app's port is part of its config (PUBLIC_URL), so listen before building it.
  let handler: http.RequestListener = (_q, s) => s.writeHead(503).end();
  const server = http.createServer((q, s) => handler(q, s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const listening = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = options.publicUrl ?? listening;

  const accounts = options.accounts ?? demoAccounts();
  const secret = options.publicClient ? undefined : randomBytes(16).toString('hex');
  const clientId = 'plant-service-test';
  const idpOptions = (port: number) => ({
    port,
    clients: [
      {
        client_id: clientId,
        redirect_uris: [`${url}${CALLBACK_PATH}`],
        ...(secret ? { client_secret: secret } : {}),
      },
    ],
    accounts,
    claimsInIdToken: options.claimsInIdToken,
    extraProfileClaims: options.extraProfileClaims,
  });
  let idp: DevIdp | undefined = await startDevIdp(idpOptions(0));
  const { issuer, port: idpPort } = idp;
  if (options.idpDown) {
    await idp.close();
    idp = undefined;
  }

  const t = await createTestApp({
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: clientId,
    ...(secret ? { OIDC_CLIENT_SECRET: secret } : {}),
    PUBLIC_URL: url,
    ...options.env,
  });
  handler = (q, s) => t.app.routing(q, s);

  const isCallback = (next: URL) => next.origin === url && next.pathname === CALLBACK_PATH;

  const rig: LoginRig = {
    t,
    url,
    accounts,
    browser: () => new TestBrowser({ [url]: listening }),
    async startIdp() {
      idp = await startDevIdp(idpOptions(idpPort));
    },
    async waitForLogin(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await fetch(`${listening}/auth/oidc/login`, { redirect: 'manual' });
        if (res.status !== 503) return;
        if (Date.now() > deadline) throw new Error('login still unavailable');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async authorize(browser, login, returnTo) {
      const start = new URL('/auth/oidc/login', url);
      if (returnTo !== undefined) start.searchParams.set('return_to', returnTo);
      let page = await browser.navigate(start, {}, isCallback);
      // The provider shows a login form, then a consent form; either is skipped when its
      // session already has the answer.
      for (let step = 0; step < 4 && !page.stoppedAt; step++) {
        if (page.status !== 200) throw new Error(`unexpected ${page.status} at ${page.url}: ${page.body}`);
        const form = readForm(page);
        const values: Record<string, string> =
          form.fields.prompt === 'login' ? { login, password: 'any password' } : {};
        page = await browser.submit(form, values, isCallback);
      }
      if (!page.stoppedAt) throw new Error(`login did not reach the callback: ${page.url} ${page.status}`);
      return page.stoppedAt;
    },
    async signIn(browser, login, returnTo) {
      return browser.navigate(await rig.authorize(browser, login, returnTo));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await t.close();
      await idp?.close();
    },
  };
  if (!options.idpDown) await rig.waitForLogin();
  return rig;
}
