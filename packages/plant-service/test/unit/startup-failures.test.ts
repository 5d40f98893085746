/**
 * Fatal start-up problems, on the real entry point (src/server.ts in a child process): each one
 * is a single fatal log line naming the cause and the variable to fix, with no stack, and exit
 * code 1. A port in use is found before the starter dataset is loaded.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPglite } from '../../src/db/client.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  lines: string[];
}

async function startServer(env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: packageDir,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, lines: output.split('\n').filter((line) => line.trim() !== '') };
}

/** The one fatal line (pino level 60); fails unless there is exactly one and nothing looks like a stack. */
function fatalLine(run: Run): { msg: string; variable: string } {
  expect(run.code).toBe(1);
  expect(run.lines.filter((line) => /^\s+at /.test(line) || line.includes('\\n    at '))).toEqual([]);
  const fatal = run.lines
    .map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg: string; variable: string };
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry?.level === 60);
  expect(fatal, run.lines.join('\n')).toHaveLength(1);
  return fatal[0]!;
}

async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-startup-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('start-up failures', { timeout: 240_000 }, () => {
  it('a port in use: one line naming PORT, found before the starter dataset is loaded', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as net.AddressInfo;
    const dataDir = path.join(dir, 'port-in-use');
    try {
      const run = await startServer({ PORT: String(port), DATA_DIR: dataDir });
      const fatal = fatalLine(run);
      expect(fatal.msg).toBe(
        `port ${port} on 127.0.0.1 is already in use (EADDRINUSE); stop the other process or set PORT`,
      );
      expect(fatal.variable).toBe('PORT');
    } finally {
      blocker.close();
    }
    const db = await newPglite({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const { rows } = await db.query<{ n: number }>('select count(*)::int as n from families');
      expect(rows[0]!.n).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('PostgreSQL refusing the credentials: one line naming DATABASE_URL and the cause', async () => {
    // Unreachable is waited for (test/postgres/database-restart.test.ts); refused credentials
    // will not heal by waiting, so they stay fatal.
    const server = net.createServer((socket) => {
      // The service under test exits on the refusal and may reset the connection first; that reset
      // is expected and must not surface as an uncaught error in this process.
      socket.on('error', () => {});
      // An ErrorResponse for the startup message: FATAL 28P01 password authentication failed.
      const fields = ['SFATAL', 'C28P01', 'Mpassword authentication failed for user "plants"', ''];
      const body = Buffer.from(`${fields.join('\0')}\0`, 'utf8');
      const head = Buffer.alloc(5);
      head.write('E', 0, 'latin1');
      head.writeUInt32BE(body.length + 4, 1);
      socket.once('data', () => socket.end(Buffer.concat([head, body])));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    try {
      const run = await startServer({
        PORT: '0',
        DATABASE_URL: `postgres://plants:secret@127.0.0.1:${port}/plants`,
      });
      const fatal = fatalLine(run);
      expect(fatal.msg).toBe(
        `cannot use PostgreSQL at 127.0.0.1:${port}/plants (28P01: the password was refused); check DATABASE_URL`,
      );
      expect(fatal.variable).toBe('DATABASE_URL');
      expect(run.lines.join('\n')).not.toContain('secret');
    } finally {
      server.close();
    }
  });

  it('an S3 bucket that cannot be used: one line naming S3_BUCKET', async () => {
    const port = await closedPort();
    const run = await startServer({
      PORT: '0',
      DATA_DIR: path.join(dir, 'bad-bucket'),
      DEMO_DATA: 'false',
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'plant-images',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    const fatal = fatalLine(run);
    expect(fatal.msg).toBe(
      'the S3 bucket plant-images cannot be used (ECONNREFUSED); check S3_BUCKET, S3_ENDPOINT and the S3 credentials',
    );
    expect(fatal.variable).toBe('S3_BUCKET');
  });
});
