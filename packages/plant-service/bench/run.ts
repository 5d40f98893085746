/**
 * `npm run bench`: loads the synthetic dataset (generate.ts) into PostgreSQL and into PGlite,
 * starts the service on each in its own process, and measures with autocannon (50 connections)
 * against a bare node:http server returning the same species JSON from memory, started in the same
 * run. Writes bench/RESULTS.md.
 *
 * The service is measured from a fresh start: load begins as soon as /ready answers, with no
 * warm-up unless BENCH_WARMUP asks for one, and one write a second goes through the API (a PUT of
 * a species' description, as a signed-in editor) for as long as the service runs, so caches are
 * emptied as they are after edits.
 *
 * Two suites: "cached" cycles through a few hundred URLs per scenario; "realistic" (realistic.ts)
 * has two traffic shapes, uniform (a new URL for every request over the whole dataset) and skewed
 * (Zipf-like, s = 1, search texts from prefixes of real names). Each backend runs as configured by
 * default (response cache on) and with RESPONSE_CACHE_MB=0, so the cost of the queries themselves
 * shows too.
 *
 * Env: BENCH_DATABASE_URL (a PostgreSQL server to create `plant_bench` on; default: a throwaway
 * cluster), BENCH_SECONDS (default 10), BENCH_WARMUP (seconds, default 0), BENCH_CONNECTIONS
 * (default 50), BENCH_SCALE (default 1: 50,000 species; 0.02 for a smoke run), BENCH_REUSE=true
 * (keep a `plant_bench` database or PGlite directory loaded by an earlier run of the same scale). For quick iterations: BENCH_SUITES (`cached,realistic`), BENCH_BACKENDS
 * (`postgres,pglite`), BENCH_CACHE (`on,off`) and BENCH_SCENARIOS (words a scenario's name must
 * contain, comma-separated, e.g. `search,mixed`). BENCH_ACCEPT_ENCODING sends that
 * Accept-Encoding header with every request to the service, as browsers and most HTTP clients do
 * (e.g. `gzip, deflate, br, zstd`); without it no request asks for compression. Sections of
 * RESULTS.md are rewritten only by a run that measured all their rows, without
 * BENCH_ACCEPT_ENCODING.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { signIn } from '../test/helpers/sessions.js';
import { startThrowawayCluster } from '../test/setup/postgres-cluster.js';
import { loadDataset, makeDataset, SIZES } from './generate.js';
import {
  freePort,
  type LoadResult,
  load,
  peakRss,
  rssPeak,
  startChild,
  startCommand as startCommandOf,
  stopChild,
  waitFor,
  writeSection,
} from './measure.js';
import { realisticScenarios, skewedScenarios, ZIPF_S } from './realistic.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const workDir = path.join(packageDir, 'bench', '.work');
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const acceptEncoding = process.env.BENCH_ACCEPT_ENCODING;
const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
const opts = { seconds, connections, warmup: Number(process.env.BENCH_WARMUP ?? 0), headers };
const listEnv = (name: string, all: string[]) =>
  (process.env[name] ?? all.join(','))
    .split(',')
    .map((v) => v.trim())
    .filter((v) => all.includes(v));
const suites = listEnv('BENCH_SUITES', ['cached', 'realistic']);
const backends = listEnv('BENCH_BACKENDS', ['postgres', 'pglite']) as Backend[];
const cacheModes = listEnv('BENCH_CACHE', ['on', 'off']);
const scenarioFilter = (process.env.BENCH_SCENARIOS ?? '')
  .split(',')
  .map((v) => v.trim().toLowerCase())
  .filter(Boolean);
const selected = (name: string) =>
  scenarioFilter.length === 0 || scenarioFilter.some((w) => name.includes(w));
const fullRun =
  !process.env.BENCH_BACKENDS && !process.env.BENCH_CACHE && scenarioFilter.length === 0 && !acceptEncoding;
type Backend = 'postgres' | 'pglite';

const startCommand = startCommandOf(packageDir);

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
const uniform = realisticScenarios(data);
const skewed = skewedScenarios(data);
const realistic: Record<string, () => string> = { ...uniform, ...skewed };

/** What one service run measures: a name, then either a fixed list of paths or a generator. */
type Plan = { name: string; paths: string[] | (() => string) }[];
interface Measured extends LoadResult {
  peakMb: number;
}

/** A signed-in editor's session cookie, written into the database before the service opens it. */
async function editorCookie(env: Record<string, string>): Promise<string> {
  const database: Database = env.DATABASE_URL
    ? openPostgres({ url: env.DATABASE_URL, poolSize: 1 })
    : await openPglite({ dataDir: path.join(env.DATA_DIR!, 'pglite') });
  try {
    return `id=${await signIn(database, loadConfig({ DEMO_DATA: 'false' }), { editor: true })}`;
  } finally {
    await database.close();
  }
}

/** One write a second through the API while the service runs; counts the failed ones. */
function writeEverySecond(base: string, cookie: string) {
  let n = 0;
  let failed = 0;
  let sent = 0;
  const timer = setInterval(() => {
    const slug = data.speciesRows[(n++ * 7919) % data.speciesRows.length]!.slug;
    sent++;
    fetch(`${base}/api/v1/species/${slug}`, {
      method: 'PUT',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ description: `Edited while measured (${n}).` }),
    })
      .then((res) => {
        if (!res.ok) failed++;
        return res.arrayBuffer();
      })
      .catch(() => {
        failed++;
      });
  }, 1_000);
  return {
    stop() {
      clearInterval(timer);
      return { sent, failed };
    },
  };
}

async function benchService(label: string, env: Record<string, string>, plan: Plan) {
  const cookie = await editorCookie(env);
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
  const whole = rssPeak(server.pid!);
  let writer: ReturnType<typeof writeEverySecond> | undefined;
  try {
    await waitFor(`${base}/ready`);
    writer = writeEverySecond(base, cookie);
    const results: Record<string, Measured> = {};
    for (const { name, paths } of plan) {
      const { result, peakMb } = await peakRss(server.pid!, () => load(base, paths, opts));
      results[name] = { ...result, peakMb };
      console.log(
        `${label} | ${name}: ${result.rps.toFixed(0)} req/s p50 ${result.p50} ms p99 ${result.p99} ms ` +
          `errors ${result.errors + result.non2xx} hits ${(100 * result.hitRatio).toFixed(0)} % rss ${peakMb.toFixed(0)} MB`,
      );
    }
    // The species bodies the baseline will serve, exactly as the service returns them.
    const bodies: Record<string, string> = {};
    for (const p of scenarios['GET species by slug']) bodies[p] = await (await fetch(base + p)).text();
    const writes = writer.stop();
    console.log(`${label} | writes: ${writes.sent} sent, ${writes.failed} failed`);
    return { results, bodies, writes, peakMb: whole.stop() };
  } finally {
    writer?.stop();
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
  `${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${baseline ? `${((100 * r.rps) / baseline).toFixed(1)} %` : '–'} | ${r.errors + r.non2xx}`;

const BACKEND_LABEL: Record<Backend, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

async function main() {
  await mkdir(workDir, { recursive: true });
  let cluster: Awaited<ReturnType<typeof startThrowawayCluster>> | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl && backends.includes('postgres')) {
    cluster = await startThrowawayCluster();
    serverUrl = cluster.url;
  }
  try {
    const plan: Plan = [];
    if (suites.includes('cached'))
      for (const [name, paths] of Object.entries(scenarios))
        if (selected(name.toLowerCase())) plan.push({ name, paths });
    if (suites.includes('realistic'))
      for (const [name, paths] of Object.entries(realistic))
        if (selected(name.toLowerCase())) plan.push({ name, paths });

    const envs: Record<Backend, Record<string, string>> = {
      postgres: backends.includes('postgres') ? { DATABASE_URL: await preparePostgres(serverUrl!) } : {},
      pglite: backends.includes('pglite') ? { DATA_DIR: await preparePglite() } : {},
    };
    /** results[backend][cache on/off][scenario] */
    const results: Results = {};
    /** The baseline measured right after each service run: baselines[backend][cache on/off]. */
    const baselines: Baselines = {};
    const runs: Runs = {};
    let bodies: Record<string, string> | undefined;
    for (const backend of backends) {
      results[backend] = {};
      baselines[backend] = {};
      for (const cache of cacheModes) {
        const env = cache === 'on' ? envs[backend] : { ...envs[backend], RESPONSE_CACHE_MB: '0' };
        const label = `${backend}${cache === 'on' ? '' : ', no cache'}`;
        const run = await benchService(label, env, plan);
        results[backend]![cache] = run.results;
        runs[`${backend}/${cache}`] = { writes: run.writes, peakMb: run.peakMb };
        bodies ??= run.bodies;
        // The machine's speed drifts by a quarter or more within minutes; a baseline taken next to
        // the service's scenarios is what their ratios are read against.
        const baseline = await benchBaseline(bodies);
        baselines[backend]![cache] = baseline;
        console.log(
          `${label} | baseline: ${baseline.rps.toFixed(0)} req/s p50 ${baseline.p50} ms p99 ${baseline.p99} ms`,
        );
      }
    }
    const load1 = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
    console.log(`load average at the end: ${load1}`);

    const complete = (names: string[]) => fullRun && names.every((n) => plan.some((p) => p.name === n));
    if (suites.includes('cached') && complete(Object.keys(scenarios)))
      await writeSection(resultsFile, 'bench:api', cachedSection(results, baselines));
    if (suites.includes('realistic') && complete(Object.keys(realistic)))
      await writeSection(resultsFile, 'bench:realistic', realisticSection(results, baselines, runs, load1));
    console.log(fullRun ? `results written to ${resultsFile}` : 'partial run: RESULTS.md left as it is');
  } finally {
    await cluster?.stop();
  }
}

type Baselines = Record<string, Record<string, LoadResult>>;
/** Per backend/cache: the writes sent during the run and the service's peak RSS from start to stop. */
type Runs = Record<string, { writes: { sent: number; failed: number }; peakMb: number }>;

/** A backend and cache mode as the tables name them. */
const modeLabel = (backend: Backend, cache: string) =>
  `${BACKEND_LABEL[backend]}${cache === 'on' ? '' : ', no cache'}`;

const header = (
  baselines: Baselines,
) => `Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}; load generator
(autocannon, ${connections} connections, ${seconds} s per scenario, ${opts.warmup} s warm-up, from a fresh start: load
began when \`/ready\` answered; one write a second through the API throughout) on the same machine; service with
\`LOG_LEVEL=warn\`, started as \`npm start\` starts it (\`${['node', ...startCommand.flags, startCommand.entry].join(' ')}\`). Data: ${Object.entries(
  SIZES,
)
  .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
  .join(', ')}.
Ratios are against the baseline measured in the same run, right after each service run (the
machine's speed drifts within minutes): a bare \`node:http\` server returning the same species JSON
from memory. Baselines: ${backends
  .flatMap((b) =>
    cacheModes.map(
      (c) =>
        `${modeLabel(b, c)} **${baselines[b]![c]!.rps.toFixed(0)} req/s** (p99 ${baselines[b]![c]!.p99} ms)`,
    ),
  )
  .join('; ')}.`;

type Results = Record<string, Record<string, Record<string, Measured>>>;

function cachedSection(results: Results, baselines: Baselines): string {
  const base = (backend: Backend, cache: string) => baselines[backend]![cache]!.rps;
  const pg = results.postgres!.on!;
  const pgNoCache = results.postgres!.off!;
  const pglite = results.pglite!.on!;
  const pgliteNoCache = results.pglite!.off!;
  const peak = (r: Record<string, Measured>) =>
    Math.max(...(Object.keys(scenarios) as Scenario[]).map((n) => r[n]!.peakMb)).toFixed(0);
  const rows = (Object.keys(scenarios) as Scenario[]).flatMap((name) => [
    `| ${name} | PostgreSQL | ${fmt(pg[name]!, base('postgres', 'on'))} |`,
    `| ${name} | PostgreSQL, no cache | ${fmt(pgNoCache[name]!, base('postgres', 'off'))} |`,
    `| ${name} | PGlite | ${fmt(pglite[name]!, base('pglite', 'on'))} |`,
    `| ${name} | PGlite, no cache | ${fmt(pgliteNoCache[name]!, base('pglite', 'off'))} |`,
  ]);
  return `
## Plant service API, cached scenarios — \`npm run bench\`

${header(baselines)}

| scenario | backend | req/s | p50 ms | p99 ms | of baseline | errors |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Peak RSS of the service under this load: PostgreSQL ${peak(pg)} MB (no cache ${peak(pgNoCache)} MB),
PGlite ${peak(pglite)} MB (no cache ${peak(pgliteNoCache)} MB; PGlite holds the whole database
engine in the service's process). "No cache" is \`RESPONSE_CACHE_MB=0\`: every request runs its queries.

Each scenario cycles through a bounded set of URLs (1,000 slugs, 200 list filters, 20 cultivar pages,
200 searches), so after the warm-up the default configuration answers from the response cache; the
"no cache" rows are what every cache miss costs. The realistic scenarios below draw a new URL for
every request.
`;
}

function realisticSection(results: Results, baselines: Baselines, runs: Runs, loadAvg: string): string {
  const names = Object.keys(realistic);
  const rows: string[] = [];
  for (const name of names)
    for (const backend of backends)
      for (const cache of cacheModes) {
        const r = results[backend]![cache]![name]!;
        rows.push(
          `| ${name} | ${modeLabel(backend, cache)} | ${fmt(r, baselines[backend]![cache]!.rps)} | ${(100 * r.hitRatio).toFixed(0)} % |`,
        );
      }
  const pct = (backend: Backend, cache: string, name: string) =>
    (100 * results[backend]![cache]![name]!.rps) / baselines[backend]![cache]!.rps;
  const check = (ok: boolean) => (ok ? 'held' : '**not held**');
  const skewedMixed = Object.keys(skewed).find((n) => n.includes('mixed'))!;
  const uniformMixed = Object.keys(uniform).find((n) => n.startsWith('mixed'))!;
  const uniformSearch = Object.keys(uniform).find((n) => n.startsWith('type-ahead'))!;
  const floors: string[] = [];
  if (backends.includes('postgres')) {
    const a = pct('postgres', 'on', skewedMixed);
    const b = pct('postgres', 'off', uniformMixed);
    const c = results.postgres!.off![uniformSearch]!.p99;
    const peak = Math.max(...cacheModes.map((m) => runs[`postgres/${m}`]!.peakMb));
    floors.push(
      `skewed mixed ≥ 20 % with the cache on: ${a.toFixed(1)} % — ${check(a >= 20)}`,
      `uniform mixed ≥ 4 % with the cache off: ${b.toFixed(1)} % — ${check(b >= 4)}`,
      `uniform search p99 ≤ 400 ms with the cache off: ${c} ms — ${check(c <= 400)}`,
      `peak RSS ≤ 200 MB on PostgreSQL: ${peak.toFixed(0)} MB — ${check(peak <= 200)}`,
    );
  }
  if (backends.includes('pglite')) {
    const all = cacheModes.flatMap((c) => names.map((n) => results.pglite![c]![n]!));
    const errors = all.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    const p99 = Math.max(...all.map((r) => r.p99));
    const peak = Math.max(...cacheModes.map((m) => runs[`pglite/${m}`]!.peakMb));
    floors.push(
      `PGlite 0 errors and p99 ≤ 1 s everywhere: ${errors} errors, worst p99 ${p99} ms — ${check(errors === 0 && p99 <= 1000)}`,
      `peak RSS ≤ 350 MB on PGlite: ${peak.toFixed(0)} MB — ${check(peak <= 350)}`,
    );
  }
  const writes = Object.entries(runs)
    .map(([k, v]) => `${k} ${v.writes.sent} sent, ${v.writes.failed} failed`)
    .join('; ');
  const peaks = Object.entries(runs)
    .map(([k, v]) => `${k} ${v.peakMb.toFixed(0)} MB`)
    .join('; ');
  return `
## Plant service API, realistic traffic — \`npm run bench:real\`

${header(baselines)}
Machine load (1, 5, 15 min averages) when the run ended: ${loadAvg}.

Two shapes, every request a URL drawn by a seeded generator (bench/realistic.ts). **Uniform**: a species
by slug uniform over the dataset; a species list with random filters on page 1–5; a cultivar list by
random \`species=\` or page 1–200; a type-ahead search from 5,000 prefixes of species' names; the mix of
all four. **Skewed**: species drawn Zipf-like (s = ${ZIPF_S}) over a popularity order whose first
species carry the starter dataset's real names; search texts are prefixes (3–8 letters) of one or two
words of a drawn species' names. "hits" is the share answered by the response cache.

| scenario | backend | req/s | p50 ms | p99 ms | of baseline | errors | hits |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Writes through the API during the runs: ${writes}. Peak RSS of the service from start to stop: ${peaks}.

Floors:
${floors.map((f) => `- ${f}`).join('\n')}
`;
}

await main();
