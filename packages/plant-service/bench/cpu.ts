/**
 * `npm run bench:cpu`: the service's own CPU time per request, a figure that holds on a shared
 * machine where throughput does not. Starts the compiled service as `npm start` runs it on the
 * benchmark's PostgreSQL database, sends a fixed number of requests per scenario (the realistic
 * generators and the planner's reads, every one a new URL) with a few connections, and reads the
 * process's user + system CPU time from /proc before and after: CPU µs per request. The bare
 * `node:http` baseline of the throughput benchmark (the same species bodies from memory) is
 * measured the same way in the same run, so a ratio to it can be read against the throughput
 * targets. (How many statements a request sends, and their plans: `npm run bench:explain`.)
 *
 * With CPU_COMPARE_DIR (another checkout's built plant-service package, e.g. the code before a
 * change), both services run side by side on the same database and take the same requests in
 * alternating batches, so a before/after ratio holds however loaded the machine is.
 *
 * Env: CPU_DATABASE_URL (default: the `plant_bench` database on TEST_DATABASE_URL's server, loaded
 * by an earlier `BENCH_REUSE=true npm run bench`), CPU_REQUESTS (per scenario, default 2000),
 * CPU_CONNECTIONS (default 4), RESPONSE_CACHE_MB (passed on), CPU_SCENARIOS (words a scenario's
 * name must contain), CPU_PROF=<dir> (also write a V8 CPU profile of the service there).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { withDatabase } from '../test/helpers/postgres-admin.js';
import { makeDataset } from './generate.js';
import { freePort, startChild, startCommand as startCommandOf, stopChild, waitFor } from './measure.js';
import { plannerScenarios, type Request } from './planner-requests.js';
import { realisticScenarios } from './realistic.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const requests = Number(process.env.CPU_REQUESTS ?? 2000);
const connections = Number(process.env.CPU_CONNECTIONS ?? 4);
const databaseUrl =
  process.env.CPU_DATABASE_URL ??
  withDatabase(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    'plant_bench',
  );
const filter = (process.env.CPU_SCENARIOS ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);

const startCommand = startCommandOf(packageDir);

/** user + system CPU time of a process in microseconds (Linux /proc, clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * CPU µs used so far by every PostgreSQL process on this machine (the benchmark's database is
 * local): what the database spends on the service's statements, beside the service's own CPU.
 * Backends that exit meanwhile drop out, so the pool's connections are opened in the warm-up.
 */
function databaseMicros(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

async function send(base: string, next: () => Request, amount: number): Promise<number> {
  let errors = 0;
  const result = await autocannon({
    url: base,
    connections,
    amount,
    requests: [
      {
        setupRequest: (req) => {
          const r = next();
          return {
            ...req,
            method: r.method,
            path: r.path,
            ...(r.body
              ? { body: r.body, headers: { ...req.headers, 'content-type': 'application/json' } }
              : {}),
          };
        },
        onResponse: (status) => {
          if (status >= 400) errors++;
        },
      },
    ],
  });
  return errors + result.errors + result.timeouts;
}

/** CPU µs per request of `pid` over `amount` requests, after a short warm-up (JIT, connections). */
async function measure(pid: number, base: string, next: () => Request, amount: number) {
  await send(base, next, Math.min(500, amount));
  const cpu0 = cpuMicros(pid);
  const errors = await send(base, next, amount);
  return { micros: (cpuMicros(pid) - cpu0) / amount, errors };
}

async function baseline(bodies: Record<string, string>): Promise<number> {
  const workDir = path.join(packageDir, 'bench', '.work');
  await mkdir(workDir, { recursive: true });
  const file = path.join(workDir, 'cpu-baseline-bodies.json');
  await writeFile(file, JSON.stringify(bodies));
  const port = await freePort();
  const server = startChild('bench/baseline-server.ts', [file, String(port)], {}, packageDir);
  try {
    await new Promise((r) => server.once('message', r));
    const paths = Object.keys(bodies);
    let i = 0;
    const next = () => ({ method: 'GET' as const, path: paths[i++ % paths.length] as string });
    return (await measure(server.pid as number, `http://127.0.0.1:${port}`, next, requests)).micros;
  } finally {
    await stopChild(server);
  }
}

/** A fresh, seeded request generator per scenario: two services measured side by side get the same requests. */
function scenarios(): Record<string, () => Request> {
  const data = makeDataset();
  return {
    ...Object.fromEntries(
      Object.entries(realisticScenarios(data)).map(([name, next]) => [
        name,
        () => ({ method: 'GET' as const, path: next() }),
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(plannerScenarios(data)).map(([name, list]) => {
        let i = 0;
        return [name, () => list[i++ % list.length] as Request];
      }),
    ),
  };
}

interface Service {
  label: string;
  pid: number;
  base: string;
  stop(): Promise<void>;
  next: Record<string, () => Request>;
}

/** The compiled service of the package in `dir`, as `npm start` runs it. */
async function startService(label: string, dir: string): Promise<Service> {
  const port = await freePort();
  const profDir = process.env.CPU_PROF;
  const child = startChild(
    startCommand.entry,
    [],
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
    },
    dir,
    [...startCommand.flags, ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])],
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/ready`);
  return { label, pid: child.pid as number, base, stop: () => stopChild(child), next: scenarios() };
}

async function main() {
  const services = [await startService('this', packageDir)];
  // CPU_COMPARE_DIR: another checkout's plant-service package (built), measured in the same run,
  // its batches alternating with this one's, so both see the same machine load.
  const compareDir = process.env.CPU_COMPARE_DIR;
  if (compareDir) services.push(await startService('compared', path.resolve(compareDir)));
  const rounds = compareDir ? 4 : 1;
  const bodies: Record<string, string> = {};
  const rows: [string, { micros: number; database: number; errors: number }[]][] = [];
  try {
    for (const s of makeDataset().speciesRows.slice(0, 1000)) {
      const p = `/api/v1/species/${s.slug}`;
      bodies[p] = await (await fetch(services[0]!.base + p)).text();
    }
    for (const name of Object.keys(services[0]!.next)) {
      if (filter.length > 0 && !filter.some((w) => name.toLowerCase().includes(w))) continue;
      const totals = services.map(() => ({ micros: 0, database: 0, errors: 0 }));
      for (const s of services) await send(s.base, s.next[name]!, Math.min(500, requests));
      for (let round = 0; round < rounds; round++)
        for (const [k, s] of services.entries()) {
          const amount = Math.ceil(requests / rounds);
          const cpu0 = cpuMicros(s.pid);
          const db0 = databaseMicros();
          totals[k]!.errors += await send(s.base, s.next[name]!, amount);
          totals[k]!.micros += (cpuMicros(s.pid) - cpu0) / (amount * rounds);
          totals[k]!.database += (databaseMicros() - db0) / (amount * rounds);
        }
      rows.push([name, totals]);
      console.error(
        `${name}: ${totals.map((t) => `${t.micros.toFixed(0)} (+${t.database.toFixed(0)} database)`).join(' / ')} µs`,
      );
    }
  } finally {
    for (const s of services) await s.stop();
  }
  const bare = await baseline(bodies);
  console.log(
    `${requests} requests per scenario, ${connections} connections; baseline ${bare.toFixed(0)} µs\n`,
  );
  const compared = services.length > 1;
  console.log(
    `| scenario | CPU µs per request | × baseline | database CPU µs |${compared ? ' compared: CPU µs | this ÷ compared | compared: database µs |' : ''} 4xx/5xx/errors |`,
  );
  console.log(`|---|---|---|---|${compared ? '---|---|---|' : ''}---|`);
  for (const [name, [mine, other]] of rows)
    console.log(
      `| ${name} | ${mine!.micros.toFixed(0)} | ${(mine!.micros / bare).toFixed(1)} | ${mine!.database.toFixed(0)} |` +
        (other
          ? ` ${other.micros.toFixed(0)} | ${(mine!.micros / other.micros).toFixed(2)} | ${other.database.toFixed(0)} |`
          : '') +
        ` ${mine!.errors + (other?.errors ?? 0)} |`,
    );
  console.log(
    `| bare node:http baseline (species by slug) | ${bare.toFixed(0)} | 1.0 | 0 |${compared ? ' | | |' : ''} 0 |`,
  );
}

await main();
