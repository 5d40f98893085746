/**
 * `npm run bench:web`: how soon the site's pages show their data in Chromium, on the service
 * as `npm start` runs it (compiled, embedded database with the starter dataset in a fresh
 * DATA_DIR, the built pages). Each page is opened BENCH_RUNS times (default 5), each time in a new
 * browser context (nothing cached, as on a first visit); the time is from the start of the
 * navigation until the page's data is on screen. Also reports the gzipped size of the scripts.
 * Writes its section of bench/RESULTS.md with the machine's load average, since the machine may be
 * shared.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { WEB_DIST_DIR } from '../src/http/web-pages.js';
import { freePort, startChild, stopChild, waitFor, writeSection } from './measure.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 5);

const PAGES: [name: string, path: string, ready: string][] = [
  ['home', '/', 'main h1'],
  ['browse', '/browse', '[data-total]'],
  ['species', '/species/daucus-carota', 'main h1 [data-name]'],
  ['family', '/families/rosaceae', '.cards li'],
  ['sow', '/sow', '.activities'],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'plant-bench-web-'));
const port = await freePort();
const server = startChild(
  'dist/server.js',
  [],
  { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  packageDir,
);
const url = `http://127.0.0.1:${port}`;
try {
  await waitFor(`${url}/ready`);
  let gzipped = 0;
  for (const file of (await readdir(`${WEB_DIST_DIR}/assets`)).filter((f) => f.endsWith('.js'))) {
    gzipped += gzipSync(await readFile(`${WEB_DIST_DIR}/assets/${file}`)).length;
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const rows: string[] = [];
  for (const [name, pagePath, ready] of PAGES) {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${url}${pagePath}`);
      await page.locator(ready).first().waitFor();
      times.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
    rows.push(
      `| ${name} | \`${pagePath}\` | ${Math.round(median(times))} | ${Math.round(Math.min(...times))} |`,
    );
  }
  await browser.close();
  const body = [
    '## Site: first render in Chromium (`npm run bench:web`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores; ` +
      `${runs} visits per page, each in a new browser context; time from navigation start until the page's data is shown. ` +
      `Scripts: ${(gzipped / 1024).toFixed(1)} KB gzipped.`,
    '',
    '| page | path | median ms | best ms |',
    '| --- | --- | ---: | ---: |',
    ...rows,
  ].join('\n');
  console.log(body);
  await writeSection(resultsFile, 'web-first-render', body);
} finally {
  await stopChild(server);
  await rm(dataDir, { recursive: true, force: true });
}
