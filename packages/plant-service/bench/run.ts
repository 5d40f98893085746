/**
 * `npm run bench` (issue 2): loads the synthetic dataset (generate.ts) into PostgreSQL and into
 * PGlite, starts the service on each in its own process, and measures with autocannon (50
 * connections, warm-up first) GET species by slug, a filtered species list, a cultivar list and
 * a two-term search, against a bare node:http server returning the same species JSON from
 * memory, started in the same run. Writes bench/RESULTS.md.
 *
 * Each backend runs twice: as configured by default (response cache on) and with
 * RESPONSE_CACHE_MB=0, so the cost of the queries themselves shows too.
 *
 * Env: BENCH_DATABASE_URL (a PostgreSQL server to create `plant_bench` on; default: a throwaway
 * cluster), BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_REUSE=true (keep a
 * `plant_bench` database or PGlite directory loaded by an earlier run).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { startThrowawayCluster } from '../test/setup/postgres-cluster.js';
import { loadDataset, makeDataset, SIZES } from './generate.js';
import {
  freePort,
  type LoadResult,
  load,
  peakRss,
  startChild,
  stopChild,
  waitFor,
  writeSection,
} from './measure.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const workDir = path.join(packageDir, 'bench', '.work');
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { seconds, connections, warmup: 5 };

/** `npm start`'s command (`node [flags] dist/server.js`), so the benchmark runs the service the same way. */
const startCommand = (() => {
  const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [node, ...rest] = pkg.scripts.start.split(/\s+/);
  const entry = rest.pop();
  if (node !== 'node' || !entry) throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return { entry, flags: rest };
})();

const data = makeDataset();
const rotate = <T>(xs: T[], n: number, step: number) =>
  Array.from({ length: n }, (_, i) => xs[(i * step) % xs.length]!);
const scenarios = {
  'GET species by slug': rotate(data.speciesRows, 1000, 47).map((s) => `/api/v1/species/${s.slug}`),
  'filtered species list': rotate(data.familyRows, 200, 3).map(
    (f) => `/api/v1/species?family=${f.slug}&nitrogen_fixer=true&page=3`,
  ),
  'cultivar list': Array.from({ length: 20 }, (_, i) => `/api/v1/cultivars?page=${i + 1}`),
  'two-term search': rotate(data.speciesRows, 200, 251).map((s) => {
    const [genus, epithet] = s.name_scientific.split(' ');
    return `/api/v1/search?q=${encodeURIComponent(`${genus!.slice(0, 5)} ${epithet!.slice(0, 4)}`)}`;
  }),
};
type Scenario = keyof typeof scenarios;

async function benchService(label: string, env: Record<string, string>) {
  const port = await freePort();
  const server = startChild(
    // The compiled service, as `npm start` runs it (`npm run bench` builds it first).
    startCommand.entry,
    [],
    { ...env, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    packageDir,
    startCommand.flags,
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/health`);
    const results = {} as Record<Scenario, LoadResult>;
    const { peakMb } = await peakRss(server.pid!, async () => {
      for (const [name, paths] of Object.entries(scenarios) as [Scenario, string[]][]) {
        results[name] = await load(base, paths, opts);
        console.log(`${label} ${name}: ${results[name].rps.toFixed(0)} req/s p99 ${results[name].p99} ms`);
      }
    });
    // The species bodies the baseline will serve, exactly as the service returns them.
    const bodies: Record<string, string> = {};
    for (const p of scenarios['GET species by slug']) bodies[p] = await (await fetch(base + p)).text();
    return { results, peakMb, bodies };
  } finally {
    await stopChild(server);
  }
}

async function benchBaseline(bodies: Record<string, string>): Promise<LoadResult> {
  const file = path.join(workDir, 'baseline-bodies.json');
  await writeFile(file, JSON.stringify(bodies));
  const port = await freePort();
  const server = startChild('bench/baseline-server.ts', [file, String(port)], {}, packageDir);
  try {
    await new Promise((r) => server.once('message', r));
    return await load(`http://127.0.0.1:${port}`, scenarios['GET species by slug'], opts);
  } finally {
    await stopChild(server);
  }
}

const reuse = process.env.BENCH_REUSE === 'true';
const pgliteMarker = () => path.join(workDir, 'pglite-data', 'loaded');

async function preparePostgres(url: string): Promise<string> {
  if (reuse) {
    try {
      const database = openPostgres({ url: withDatabase(url, 'plant_bench'), poolSize: 1 });
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as n from species`,
      )) as unknown as {
        rows: { n: number }[];
      };
      await database.close();
      if (rows[0]?.n === SIZES.species) return withDatabase(url, 'plant_bench');
    } catch {}
  }
  await adminQuery(url, 'drop database if exists plant_bench');
  await adminQuery(url, 'create database plant_bench');
  const dbUrl = withDatabase(url, 'plant_bench');
  const database = openPostgres({ url: dbUrl, poolSize: 2 });
  await migrate(database);
  const t0 = Date.now();
  await loadDataset(database, data);
  console.log(`postgres: dataset loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await database.close();
  return dbUrl;
}

async function preparePglite(): Promise<string> {
  const dataDir = path.join(workDir, 'pglite-data');
  if (reuse && existsSync(pgliteMarker())) return dataDir;
  await rm(dataDir, { recursive: true, force: true });
  const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(database);
  const t0 = Date.now();
  await loadDataset(database, data);
  console.log(`pglite: dataset loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await database.close();
  await writeFile(pgliteMarker(), new Date().toISOString());
  return dataDir;
}

const fmt = (r: LoadResult, baseline?: number) =>
  `${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${baseline ? `${((100 * r.rps) / baseline).toFixed(0)} %` : '–'} | ${r.errors + r.non2xx}`;

async function main() {
  await mkdir(workDir, { recursive: true });
  let cluster: Awaited<ReturnType<typeof startThrowawayCluster>> | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    cluster = await startThrowawayCluster();
    serverUrl = cluster.url;
  }
  try {
    const pgUrl = await preparePostgres(serverUrl);
    const pgliteDir = await preparePglite();
    const pg = await benchService('postgres', { DATABASE_URL: pgUrl });
    const pgNoCache = await benchService('postgres, no cache', {
      DATABASE_URL: pgUrl,
      RESPONSE_CACHE_MB: '0',
    });
    const pglite = await benchService('pglite', { DATA_DIR: pgliteDir });
    const pgliteNoCache = await benchService('pglite, no cache', {
      DATA_DIR: pgliteDir,
      RESPONSE_CACHE_MB: '0',
    });
    const baseline = await benchBaseline(pg.bodies);
    console.log(`baseline: ${baseline.rps.toFixed(0)} req/s p99 ${baseline.p99} ms`);

    const rows = (Object.keys(scenarios) as Scenario[]).flatMap((name) => [
      `| ${name} | PostgreSQL | ${fmt(pg.results[name], baseline.rps)} |`,
      `| ${name} | PostgreSQL, no cache | ${fmt(pgNoCache.results[name], baseline.rps)} |`,
      `| ${name} | PGlite | ${fmt(pglite.results[name], baseline.rps)} |`,
      `| ${name} | PGlite, no cache | ${fmt(pgliteNoCache.results[name], baseline.rps)} |`,
    ]);
    const slug = pg.results['GET species by slug'];
    const list = pg.results['filtered species list'];
    const search = pg.results['two-term search'];
    const check = (ok: boolean) => (ok ? 'met' : '**missed**');
    const pct = (r: LoadResult) => `${((100 * r.rps) / baseline.rps).toFixed(0)} %`;
    const body = `
## Plant service API (issue 2) — \`npm run bench\`

Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}; load generator
(autocannon, ${connections} connections, ${seconds} s after a 5 s warm-up) on the same machine; service with
\`LOG_LEVEL=warn\`, started as \`npm start\` starts it (\`${['node', ...startCommand.flags, startCommand.entry].join(' ')}\`). Data: ${Object.entries(
      SIZES,
    )
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ')}.
Ratios are against the baseline measured in the same run: a bare \`node:http\` server returning the
same species JSON from memory: **${baseline.rps.toFixed(0)} req/s**, p50 ${baseline.p50} ms, p99 ${baseline.p99} ms.

| scenario | backend | req/s | p50 ms | p99 ms | of baseline | errors |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Peak RSS of the service under this load: PostgreSQL ${pg.peakMb.toFixed(0)} MB (no cache ${pgNoCache.peakMb.toFixed(0)} MB),
PGlite ${pglite.peakMb.toFixed(0)} MB (no cache ${pgliteNoCache.peakMb.toFixed(0)} MB; PGlite holds the whole database
engine in the service's process). "No cache" is \`RESPONSE_CACHE_MB=0\`: every request runs its queries.

Targets on PostgreSQL, default configuration: GET by slug ≥ 40 % of baseline with p99 ≤ 25 ms — ${((100 * slug.rps) / baseline.rps).toFixed(0)} %,
p99 ${slug.p99} ms: ${check(slug.rps >= 0.4 * baseline.rps && slug.p99 <= 25)}; filtered list ≥ 25 % —
${((100 * list.rps) / baseline.rps).toFixed(0)} %: ${check(list.rps >= 0.25 * baseline.rps)}; search p99 ≤ 40 ms — ${search.p99} ms:
${check(search.p99 <= 40)}; RSS ≤ 250 MB — ${pg.peakMb.toFixed(0)} MB: ${check(pg.peakMb <= 250)}.

Read the two halves together: each scenario cycles through a bounded set of URLs (1,000 slugs, 200
list filters, 20 cultivar pages, 200 searches), so after the warm-up the default configuration answers
from the response cache; the "no cache" rows are what every cache miss costs (a new URL, or the first
read after any write): on PostgreSQL GET by slug ${pct(pgNoCache.results['GET species by slug'])} of baseline
(p99 ${pgNoCache.results['GET species by slug'].p99} ms; lookups by ref are prepared statements), filtered list
${pct(pgNoCache.results['filtered species list'])}, search p99 ${pgNoCache.results['two-term search'].p99} ms, cultivar list p99
${pgNoCache.results['cultivar list'].p99} ms (an exact count of 100,000 rows per page). Faster uncached lists and search
(prepared list queries, a cheaper total, a narrower search index) are open work.
`;
    await writeSection(resultsFile, 'bench:api', body);
    console.log(`results written to ${resultsFile}`);
  } finally {
    await cluster?.stop();
  }
}

await main();
