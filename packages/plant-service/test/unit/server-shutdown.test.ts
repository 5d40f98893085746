/**
 * SIGTERM: the service stops accepting (503 for what arrives after), answers what it was
 * answering, closes the database (releasing the embedded database's lock) and exits with 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-sigterm-'));
});
afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function listening(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    process.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    process.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${out}`)));
  });
}

describe('SIGTERM', () => {
  it('answers the request sent with the signal, releases the database and exits 0', {
    timeout: 180_000,
  }, async () => {
    const { DATABASE_URL: _url, ...env } = process.env;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: PACKAGE_DIR,
      env: { ...env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const base = await listening(child);
    await access(path.join(dir, 'pglite.lock'));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    const inFlight = fetch(`${base}/api/v1/export`);
    child.kill('SIGTERM');
    // Answered either way, never dropped: 200 if it was taken before the close began, else 503.
    const res = await inFlight;
    expect([200, 503]).toContain(res.status);
    await res.text();
    expect(await exited).toBe(0);
    await expect(access(path.join(dir, 'pglite.lock'))).rejects.toThrow();
  });
});
