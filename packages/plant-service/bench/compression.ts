/**
 * `npm run bench:compression`: what response compression saves and costs. The starter dataset in
 * an in-memory PGlite; GET /api/v1/species?per_page=100 (the largest page, with every species
 * field) served from the response cache, so the time measured is the app's own (cache hit plus
 * encoding), sent without, with gzip and with br. Prints a Markdown table for bench/RESULTS.md.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { loadStarterDataIfEmpty } from '../src/dataset/starter.js';
import { newPglite, openPglite } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

const ROUNDS = 200;
const URLS = [1, 2, 3].map((page) => `/api/v1/species?per_page=100&page=${page}`);

const database = await openPglite({ instance: await newPglite() });
await migrate(database);
await loadStarterDataIfEmpty(database);
const app = await buildApp({ config: loadConfig({ DEMO_DATA: 'false', LOG_LEVEL: 'warn' }), database });
await app.ready();

const rows: string[] = [];
for (const encoding of ['identity', 'gzip', 'br']) {
  const headers = encoding === 'identity' ? {} : { 'accept-encoding': encoding };
  for (const url of URLS) await app.inject({ url, headers }); // fill the cache
  let bytes = 0;
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const url = URLS[i % URLS.length]!;
    const start = performance.now();
    const res = await app.inject({ url, headers });
    times.push(performance.now() - start);
    if (i < URLS.length) bytes += res.rawPayload.length;
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.floor(times.length * 0.99)]!;
  rows.push(
    `| ${encoding} | ${Math.round(bytes / URLS.length / 1024)} KB | ${mean.toFixed(2)} | ${p99.toFixed(2)} |`,
  );
}
await app.close();
await database.close();

console.log(`Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (load average ${os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(
    ', ',
  )}), Node ${process.version}; ${ROUNDS} cache-hit requests over ${URLS.length} pages of 100 species.

| Accept-Encoding | body per page | mean ms | p99 ms |
|---|---|---|---|
${rows.join('\n')}`);
