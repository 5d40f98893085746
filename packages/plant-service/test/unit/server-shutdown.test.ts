/**
 * SIGTERM: the service stops accepting (503 for what arrives after), answers what it was
 * answering, closes the database (releasing the embedded database's lock) and exits with 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
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

/** Resolves once the process has printed `text` (on stdout, where pino logs). */
function seen(process: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(text)) {
        process.stdout?.off('data', onData);
        resolve();
      }
    };
    process.stdout?.on('data', onData);
  });
}

describe('SIGTERM', () => {
  it('finishes the request in progress when the signal comes, releases the database and exits 0', {
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
    // A request the server is in the middle of when the signal comes: its headers are in (the
    // server has logged it), its body is not yet complete.
    const url = new URL('/api/v1/guilds/check', base);
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.once('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      request.once('error', reject);
    });
    const requestSeen = seen(child, '"url":"/api/v1/guilds/check"');
    request.flushHeaders();
    request.write('{"species":');
    await requestSeen;
    const shutdownSeen = seen(child, 'shutting down');
    child.kill('SIGTERM');
    await shutdownSeen;
    request.end('["no-such-a","no-such-b"]}');
    // Finished, not dropped: the handler still reads the database after the signal.
    const res = await answered;
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ field: 'species[0]' });
    expect(await exited).toBe(0);
    await expect(access(path.join(dir, 'pglite.lock'))).rejects.toThrow();
  });
});
