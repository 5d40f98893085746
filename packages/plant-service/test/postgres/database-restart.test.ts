/**
 * PostgreSQL going away under traffic, on a server of the test's own that it restarts and stops:
 * the process survives, every request is answered (200/404 or a 503 with Retry-After, never a 500
 * or a hang), the outage is logged once when it starts and once when it ends, and requests succeed
 * again by themselves soon after PostgreSQL is back. Started while PostgreSQL is down, the real
 * entry point listens, is alive but not ready, answers 503, and becomes ready once it is up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openPostgres } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { createTestApp } from '../helpers/app.js';
import { adminQuery, withDatabase } from '../helpers/postgres-admin.js';
import { type RestartablePostgres, restartablePostgres } from '../helpers/restartable-postgres.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
let server: RestartablePostgres;
let child: ChildProcess | undefined;

beforeAll(async () => {
  server = await restartablePostgres();
  await server.start();
}, 120_000);
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await server?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  status: number;
  retryAfter?: string;
  at: number;
}

describe('PostgreSQL restarted or stopped under traffic', () => {
  it('answers 503 with Retry-After during the outage, never a 500, logs each change once, recovers', {
    timeout: 240_000,
  }, async () => {
    const logged: { level: string; msg: string }[] = [];
    const log = {
      warn: (_: object, msg: string) => logged.push({ level: 'warn', msg }),
      info: (_: object, msg: string) => logged.push({ level: 'info', msg }),
    };
    const url = withDatabase(server.url, 'postgres');
    const database = openPostgres({ url, poolSize: 4, log });
    await migrate(database);
    // One client's steady writes: the per-client write limit is not what this test is about.
    const t = await createTestApp({ RATE_LIMIT_WRITES_PER_MINUTE: '0' }, { database });
    const cookie = await t.cookie({ editor: true });

    const outcomes: Outcome[] = [];
    const unexpected: string[] = [];
    let running = true;
    let n = 0;
    const worker = async () => {
      while (running) {
        const i = n++;
        const request =
          i % 2 === 0
            ? t.app.inject({
                method: 'POST',
                url: '/api/v1/families',
                headers: { cookie },
                payload: { name_scientific: `Restartaceae${i}` },
              })
            : t.app.inject({ url: `/api/v1/families/no-such-family-${i}` });
        const res = await Promise.race([
          request,
          sleep(5_000).then(() => ({
            statusCode: 0,
            headers: {} as Record<string, string>,
            body: 'no answer within 5 s',
          })),
        ]);
        const status = res.statusCode;
        outcomes.push({
          status,
          retryAfter: res.headers['retry-after'] as string | undefined,
          at: Date.now(),
        });
        if (![200, 404, 503].includes(status)) unexpected.push(`${status} ${res.body}`);
        // Clients told to retry after a second do not all come back at once.
        if (status === 503) await sleep(20);
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    /** Milliseconds from `since` until a request sent after it succeeded. */
    const recovered = async (since: number): Promise<number> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ok = outcomes.find((o) => o.at > since && o.status !== 503);
        if (ok) return ok.at - since;
        if (Date.now() > deadline)
          throw new Error('no request succeeded within 30 s of PostgreSQL being back');
        await sleep(20);
      }
    };

    const recovery: Record<string, number> = {};
    try {
      await recovered(Date.now());
      await server.restart('fast');
      recovery.fast = await recovered(Date.now());
      await server.restart('immediate');
      recovery.immediate = await recovered(Date.now());
      await server.stop('fast');
      const stoppedAt = Date.now();
      await sleep(1_500);
      await server.start();
      const startedAt = Date.now();
      recovery.stop = await recovered(startedAt);
      // And the service knows it (its probe has seen the database back).
      while (!database.reachable?.()) {
        if (Date.now() > startedAt + 5_000) throw new Error('still marked unreachable 5 s after the start');
        await sleep(20);
      }
      recovery.known = Date.now() - startedAt;
      const duringStop = outcomes.filter((o) => o.at > stoppedAt + 200 && o.at < stoppedAt + 1_400);
      expect(duringStop.length).toBeGreaterThan(0);
      expect(new Set(duringStop.map((o) => o.status))).toEqual(new Set([503]));
    } finally {
      running = false;
      await Promise.all(workers);
      // Every connection a request took went back: none is held by a transaction that lost it.
      const stats = database.poolStats?.();
      expect(stats?.waiting).toBe(0);
      expect(stats?.idle).toBe(stats?.total);
      await t.close();
    }

    expect(unexpected).toEqual([]);
    const unavailable = outcomes.filter((o) => o.status === 503);
    expect(unavailable.every((o) => o.retryAfter === '1')).toBe(true);
    // Once per change, not per request: a down line for each outage seen, each followed by an up line.
    const changes = logged.map((l) => l.level);
    const downs = changes.filter((l) => l === 'warn').length;
    expect(downs).toBeGreaterThanOrEqual(1);
    expect(downs).toBeLessThanOrEqual(3);
    expect(changes).toEqual(Array.from({ length: downs }, () => ['warn', 'info']).flat());
    expect(unavailable.length).toBeGreaterThan(downs);
    // Back within a few seconds of pg_ctl returning (about one probe interval on a quiet machine).
    for (const ms of Object.values(recovery)) expect(ms).toBeLessThan(5_000);
    console.info(
      `database restart: ${outcomes.length} requests, ${unavailable.length} × 503, ` +
        `recovered after ${JSON.stringify(recovery)} ms, ${logged.length} log lines`,
    );
  });

  it('starts while PostgreSQL is down: alive, not ready, 503 with Retry-After; ready once it is up', {
    timeout: 180_000,
  }, async () => {
    await adminQuery(server.url, 'create database plant_start');
    await server.stop('fast');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'plant-start-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: PACKAGE_DIR,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: withDatabase(server.url, 'plant_start'),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(output);
        if (match?.[1]) {
          clearInterval(timer);
          resolve(match[1]);
        }
      }, 50);
      void exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`exited with ${code} before listening:\n${output}`));
      });
    });

    const health = await fetch(new URL('/health', base));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: 'unreachable' });
    expect((await fetch(new URL('/ready', base))).status).toBe(503);
    const data = await fetch(new URL('/api/v1/families', base));
    expect(data.status).toBe(503);
    expect(data.headers.get('retry-after')).not.toBeNull();
    expect(await data.json()).toHaveProperty('error');

    await sleep(1_000);
    await server.start();
    const deadline = Date.now() + 30_000;
    while ((await fetch(new URL('/ready', base))).status !== 200) {
      if (Date.now() > deadline) throw new Error(`not ready 30 s after PostgreSQL started:\n${output}`);
      await sleep(100);
    }
    expect((await fetch(new URL('/api/v1/families', base))).status).toBe(200);

    // Why it waited, once, naming the variable to check; not once per attempt.
    const lines = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; variable?: string });
    const why = lines.filter((l) => l.variable === 'DATABASE_URL');
    expect(why).toHaveLength(1);
    expect(why[0]!.level).toBe(40);
    expect(why[0]!.msg).toMatch(/^cannot use PostgreSQL at 127\.0\.0\.1:\d+\/plant_start \(ECONNREFUSED/);
    expect(lines.some((l) => l.msg.includes('migrations applied'))).toBe(true);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
