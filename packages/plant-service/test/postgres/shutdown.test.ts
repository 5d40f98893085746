/**
 * SIGTERM on PostgreSQL, over a real socket: requests the server is answering when the signal
 * comes (here, searches held up inside the database by a lock) are answered in full before the
 * pool closes; then the process exits with 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { testDatabase } from '../helpers/database.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const IN_FLIGHT = 30;

let database: Database;
let child: ChildProcess | undefined;

beforeAll(async () => {
  database = await testDatabase();
  await migrate(database);
});
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await database.close();
});

/** Everything the process has printed so far, and a wait for a pattern to appear in it. */
function output(process: ChildProcess) {
  let out = '';
  const waiters: { test: (s: string) => boolean; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters])
      if (w.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  process.stdout?.on('data', onData);
  process.stderr?.on('data', onData);
  return {
    text: () => out,
    until: (test: (s: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        if (test(out)) return resolve();
        waiters.push({ test, resolve });
        process.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      }),
  };
}

function get(url: URL, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .once('error', reject);
  });
}

describe('SIGTERM on PostgreSQL', () => {
  it('answers the requests in flight, then closes the pool and exits 0', { timeout: 120_000 }, async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: PACKAGE_DIR,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: '0',
        HOST: '127.0.0.1',
        DEMO_DATA: 'false',
        LOG_LEVEL: 'info',
        DATABASE_POOL_SIZE: '4',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = output(child);
    await log.until((s) => /listening at http:\/\/127\.0\.0\.1:\d+/i.test(s));
    const base = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(log.text())?.[1] as string;
    const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    for (let i = 0; i < 100; i++) {
      if ((await get(new URL('/ready', base), agent)).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));

    // Searches wait inside the database until the lock is released.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table species, families, cultivars, name_words in access exclusive mode');
    const answers = Array.from({ length: IN_FLIGHT }, (_, i) =>
      get(new URL(`/api/v1/search?q=term${i}`, base), agent),
    );
    const arrived = (s: string) => (s.match(/"url":"\/api\/v1\/search\?q=term/g) ?? []).length >= IN_FLIGHT;
    await log.until(arrived);
    child.kill('SIGTERM');
    await log.until((s) => s.includes('shutting down'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await locker.query('commit');
    await locker.end();

    const results = await Promise.all(answers);
    agent.destroy();
    expect(results.map((r) => r.status)).toEqual(Array(IN_FLIGHT).fill(200));
    expect(await exited).toBe(0);
    expect(log.text()).not.toMatch(/Cannot use a pool/);
  });
});
