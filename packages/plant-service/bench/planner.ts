/**
 * `npm run bench:planner`: the planner's reads over the synthetic dataset (generate.ts) on
 * PostgreSQL, with autocannon at 50 connections: the species list with a hardiness zone, the
 * species list with facet counts, a guild around a species, a guild check (POST) and the planting
 * calendar. Every scenario draws its URLs (or bodies) from the whole dataset with a seeded
 * generator, so the response cache meets mostly new requests; each runs with the cache on (the
 * default) and off (RESPONSE_CACHE_MB=0). Writes its section of bench/RESULTS.md with the
 * machine's load average, since the machine may be shared.
 *
 * Env: BENCH_DATABASE_URL (a PostgreSQL server to create `plant_bench_planner` on; default: a
 * throwaway cluster), BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_REUSE=true
 * (keep a database loaded by an earlier run), BENCH_SCENARIOS (words a scenario's name must
 * contain; a run of some scenarios prints its figures and leaves bench/RESULTS.md as it is).
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { startThrowawayCluster } from '../test/setup/postgres-cluster.js';
import { loadDataset, makeDataset, SIZES } from './generate.js';
import {
  freePort,
  type LoadResult,
  startChild,
  startCommand as startCommandOf,
  stopChild,
  waitFor,
  writeSection,
} from './measure.js';
import { PLANNER_REQUESTS, plannerScenarios, type Request } from './planner-requests.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DB_NAME = 'plant_bench_planner';

const startCommand = startCommandOf(packageDir);

const data = makeDataset();
const scenarioFilter = (process.env.BENCH_SCENARIOS ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
const scenarios = Object.fromEntries(
  Object.entries(plannerScenarios(data)).filter(
    ([name]) => scenarioFilter.length === 0 || scenarioFilter.some((w) => name.toLowerCase().includes(w)),
  ),
);
const N = PLANNER_REQUESTS;

/** autocannon: `seconds` of load after a warm-up, each request taking the next of `requests`. */
async function load(base: string, requests: Request[], duration: number): Promise<LoadResult> {
  let i = 0;
  let hits = 0;
  let responses = 0;
  const r = await autocannon({
    url: base,
    connections,
    duration,
    requests: [
      {
        setupRequest: (req) => {
          const next = requests[i++ % requests.length] as Request;
          return {
            ...req,
            method: next.method,
            path: next.path,
            ...(next.body
              ? { body: next.body, headers: { ...req.headers, 'content-type': 'application/json' } }
              : {}),
          };
        },
        onResponse: (_status, _body, _context, headers) => {
          responses++;
          if ((headers as Record<string, string> | undefined)?.['x-cache'] === 'HIT') hits++;
        },
      },
    ],
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    hitRatio: responses === 0 ? 0 : hits / responses,
  };
}

async function preparePostgres(url: string): Promise<string> {
  const dbUrl = withDatabase(url, DB_NAME);
  if (process.env.BENCH_REUSE === 'true') {
    try {
      const database = openPostgres({ url: dbUrl, poolSize: 1 });
      const { rows } = (await database.db.execute(
        sql`select count(*)::int as n from species`,
      )) as unknown as {
        rows: { n: number }[];
      };
      await database.close();
      if (rows[0]?.n === SIZES.species) return dbUrl;
    } catch {}
  }
  await adminQuery(url, `drop database if exists ${DB_NAME}`);
  await adminQuery(url, `create database ${DB_NAME}`);
  const database = openPostgres({ url: dbUrl, poolSize: 2 });
  await migrate(database);
  const t0 = Date.now();
  await loadDataset(database, data);
  // Vacuum too: index-only scans need the visibility map a fresh bulk load does not have yet.
  await database.db.execute(sql`vacuum analyze`);
  console.log(`postgres: dataset loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await database.close();
  return dbUrl;
}

async function benchService(label: string, env: Record<string, string>) {
  const port = await freePort();
  const server = startChild(
    startCommand.entry,
    [],
    { ...env, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    packageDir,
    startCommand.flags,
  );
  const base = `http://127.0.0.1:${port}`;
  const results: Record<string, LoadResult & { load: string }> = {};
  try {
    await waitFor(`${base}/ready`);
    for (const [name, requests] of Object.entries(scenarios)) {
      await load(base, requests.slice(N / 2), 5);
      const loadBefore = os.loadavg()[0] as number;
      results[name] = {
        ...(await load(base, requests, seconds)),
        load: `${loadBefore.toFixed(1)}–${(os.loadavg()[0] as number).toFixed(1)}`,
      };
      const r = results[name];
      console.log(
        `${label} ${name}: ${r?.rps.toFixed(0)} req/s p50 ${r?.p50} ms p99 ${r?.p99} ms (load ${r?.load})`,
      );
    }
    return results;
  } finally {
    await stopChild(server);
  }
}

async function main() {
  let cluster: Awaited<ReturnType<typeof startThrowawayCluster>> | undefined;
  let serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    cluster = await startThrowawayCluster();
    serverUrl = cluster.url;
  }
  try {
    const dbUrl = await preparePostgres(serverUrl);
    const cached = await benchService('postgres', { DATABASE_URL: dbUrl });
    const uncached = await benchService('postgres, no cache', {
      DATABASE_URL: dbUrl,
      RESPONSE_CACHE_MB: '0',
    });
    const row = (name: string, label: string, r: LoadResult & { load: string }) =>
      `| ${name} | ${label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.p99 <= 100 ? 'met' : '**missed**'} | ${r.errors + r.non2xx} | ${r.load} |`;
    const rows = Object.keys(scenarios).flatMap((name) => [
      row(name, 'PostgreSQL', cached[name] as LoadResult & { load: string }),
      row(name, 'PostgreSQL, no cache', uncached[name] as LoadResult & { load: string }),
    ]);
    const body = `
## Planner reads — \`npm run bench:planner\`

Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, Node ${process.version};
autocannon with ${connections} connections, ${seconds} s after a 5 s warm-up on other requests of the same kind,
on the same machine as the service (\`${['node', ...startCommand.flags, startCommand.entry].join(' ')}\`) and PostgreSQL.
Data: ${Object.entries(SIZES)
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ')}. Each scenario cycles through ${N.toLocaleString('en')} seeded requests drawn from the
whole dataset (zones 3–9 whole or half, random layers, families, species, months and weeks), so even
with the cache on most requests are misses. "load" is the 1-minute load average before and after
the run: the machine is shared, and figures taken under a higher load are slower than the code.

| scenario | backend | req/s | p50 ms | p99 ms | p99 ≤ 100 ms | errors | load |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
    if (scenarioFilter.length > 0) {
      console.log(rows.join('\n'));
      return;
    }
    await writeSection(resultsFile, 'bench:planner', body);
    console.log(`results written to ${resultsFile}`);
  } finally {
    await cluster?.stop();
  }
}

await main();
