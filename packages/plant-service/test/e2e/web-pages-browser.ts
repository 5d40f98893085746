/**
 * What the browser tests of the site share: one service per test file (login rig with the
 * development provider, the starter dataset, uploads in a folder of the run) and Debian's
 * Chromium driven by playwright-core; pages that fail their test on any script error or CSP
 * refusal, sign-in through the provider's pages, and the accessibility check.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadStarterDataIfEmpty } from '../../src/dataset/starter.js';
import { demoAccounts, readerAccount } from '../../src/dev-idp/accounts.js';
import { type LoginRig, startLoginRig } from '../helpers/login-rig.js';

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
export const SCREENSHOTS = new URL('../../../../docs/screenshots/', import.meta.url);
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const SLOW = 180_000;

export interface Site {
  /** The service's PUBLIC_URL. */
  readonly url: string;
  readonly rig: LoginRig;
  /** GET on the API, outside the browser. */
  api<T>(path: string): Promise<T>;
  /** A page in a new browser context; `problems` collects script errors and refused requests. */
  open(options?: { locale?: string; viewport?: typeof DESKTOP }): Promise<{
    context: BrowserContext;
    page: Page;
    problems: string[];
  }>;
  /**
   * Signs the context in through the development provider's login and consent pages. What those
   * pages of the provider fail to load (its web font) is not the site's concern: `problems` restarts.
   */
  signIn(page: Page, problems: string[], login: string, returnTo: string): Promise<void>;
}

/** Starts the service and Chromium before the file's tests, and stops both after them. */
export function useSite(): Site {
  let rig: LoginRig;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    // Uploaded images go to a folder of this run, not to the package's data/.
    dataDir = await mkdtemp(path.join(tmpdir(), 'plant-web-e2e-'));
    rig = await startLoginRig({
      accounts: new Map([...demoAccounts(), ['rita', readerAccount('rita')]]),
      env: {
        DATA_DIR: dataDir,
        WRITE_ACCESS: 'groups',
        OIDC_EDITOR_GROUPS: 'plant-editors',
        OIDC_ADMIN_GROUPS: 'plant-admins',
      },
    });
    await loadStarterDataIfEmpty(rig.t.database);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    await rig?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  return {
    get url() {
      return rig.url;
    },
    get rig() {
      return rig;
    },
    api: async <T>(path: string): Promise<T> => (await fetch(`${rig.url}${path}`)).json() as Promise<T>,
    async open(options = {}) {
      const context = await browser.newContext({
        locale: options.locale ?? 'en-GB',
        viewport: options.viewport ?? DESKTOP,
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      // A request the page itself gave up (it navigated on or closed while a late fetch, such as a
      // cultivar's suppliers, was under way) is the browser's doing, not a failure; any other is.
      page.on('requestfailed', (request) => {
        const error = request.failure()?.errorText;
        if (error !== 'net::ERR_ABORTED') problems.push(`${request.url()}: ${error}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 401/.test(message.text()))
          problems.push(message.text());
      });
      return { context, page, problems };
    },
    async signIn(page, problems, login, returnTo) {
      await page.goto(`${rig.url}/auth/oidc/login?return_to=${encodeURIComponent(returnTo)}`);
      await page.fill('input[name=login]', login);
      await page.fill('input[name=password]', 'any password');
      await page.click('button[type=submit]');
      await page.click('button[type=submit]');
      await page.waitForURL(`${rig.url}${returnTo}`);
      // The header has asked who is signed in: a navigation now aborts nothing the page wanted.
      await page.locator('header .who').waitFor();
      problems.length = 0;
    },
  };
}

export async function expectNoSeriousViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** The browser reports a refused write on its console; drops the `count` 400s a test provoked. */
export function expectRefusals(problems: string[], count: number) {
  expect(problems.filter((p) => /status of 400/.test(p))).toHaveLength(count);
  problems.splice(0, problems.length, ...problems.filter((p) => !/status of 400/.test(p)));
}

export async function closeClean(context: BrowserContext, problems: string[]) {
  await context.close();
  expect(problems).toEqual([]);
}
