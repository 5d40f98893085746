/** Helpers shared by the benchmarks: child servers, RSS sampling, autocannon runs, RESULTS.md sections. */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { freePort } from '../test/helpers/free-port.js';
import { adminQuery } from '../test/helpers/postgres-admin.js';
import { startThrowawayCluster } from '../test/setup/postgres-cluster.js';

export { freePort };

/** Starts a TypeScript entry point in its own Node process (so load generator and server don't share a core's event loop). */
export function startChild(
  entry: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  nodeFlags: string[] = [],
): ChildProcess {
  return fork(entry, args, {
    cwd,
    env: { ...process.env, ...env },
    // Compiled JavaScript runs as is; TypeScript through tsx.
    execArgv: entry.endsWith('.ts') ? ['--import', 'tsx', ...nodeFlags] : nodeFlags,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * `npm start`'s command (`node [flags] <entry>`) in the package at `packageDir`, so a benchmark runs
 * the service with the same Node flags users get.
 */
export function startCommand(packageDir: string): { entry: string; flags: string[] } {
  const pkg = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as {
    scripts: { start: string };
  };
  const [node, ...rest] = pkg.scripts.start.split(/\s+/);
  const entry = rest.pop();
  if (node !== 'node' || !entry) throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return { entry, flags: rest };
}

export async function waitFor(url: string, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The resident set size of a process now, in MB, from /proc (Linux); 0 once it is gone. */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every 100 ms until stopped; returns the peak in MB. */
export function rssPeak(pid: number): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssMb(pid));
    },
  };
}

/** Peak resident set size of a process while `during` runs, from /proc (Linux). */
export async function peakRss<T>(
  pid: number,
  during: () => Promise<T>,
): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {}
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await during();
    sample();
    return { result, peakMb: peak / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Share of responses the response cache answered (its `x-cache: HIT` header), 0–1. */
  hitRatio: number;
}

/**
 * autocannon: `seconds` of load at `connections` after a warm-up. Each request takes the next of
 * `paths`, or a fresh path from `paths()` when it is a generator, and carries `headers`.
 */
export async function load(
  base: string,
  paths: string[] | (() => string),
  {
    seconds,
    connections,
    warmup,
    headers = {},
  }: { seconds: number; connections: number; warmup: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  let i = 0;
  const next = typeof paths === 'function' ? paths : () => paths[i++ % paths.length]!;
  let hits = 0;
  let responses = 0;
  const run = (duration: number) =>
    autocannon({
      url: base,
      connections,
      duration,
      headers,
      requests: [
        {
          setupRequest: (req) => {
            req.path = next();
            return req;
          },
          onResponse: (_status, _body, _context, headers) => {
            responses++;
            const h = headers as Record<string, string> | undefined;
            if (h && (h['x-cache'] ?? h['X-Cache']) === 'HIT') hits++;
          },
        },
      ],
    });
  if (warmup > 0) await run(warmup);
  hits = 0;
  responses = 0;
  const r = await run(seconds);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    hitRatio: responses === 0 ? 0 : hits / responses,
  };
}

/** Replaces (or appends) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export async function writeSection(file: string, name: string, body: string): Promise<void> {
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch {
    text =
      '# Benchmark results\n\nWritten by `npm run bench` and the other benchmarks in packages/*/bench.\n';
  }
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  text = re.test(text) ? text.replace(re, block) : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(file, text);
}

/**
 * The PostgreSQL server a write benchmark measures on: BENCH_DATABASE_URL as configured, or a
 * throwaway cluster switched to durable settings (it starts without them, for fast tests), so
 * commits cost what they cost in production. `settings` says which, for the results.
 */
export async function durableServer(): Promise<{ url: string; settings: string; stop(): Promise<void> }> {
  const configured = process.env.BENCH_DATABASE_URL;
  if (configured)
    return {
      url: configured,
      settings: 'the PostgreSQL server at BENCH_DATABASE_URL, as configured',
      stop: async () => {},
    };
  const cluster = await startThrowawayCluster();
  for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes'])
    await adminQuery(cluster.url, `alter system set ${setting} = on`);
  await adminQuery(cluster.url, 'select pg_reload_conf()');
  return {
    url: cluster.url,
    settings:
      'a throwaway PostgreSQL 15 cluster on this machine with fsync, synchronous_commit and full_page_writes on',
    stop: cluster.stop,
  };
}
