/**
 * A real HAProxy (Debian's /usr/sbin/haproxy) in front of a test server: HTTP mode with
 * `option forwardfor`, so the service sees it as the one proxy hop that appends the client's address
 * to `X-Forwarded-For`. Listens on a free loopback port; config in a temporary directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export const HAPROXY = '/usr/sbin/haproxy';

export interface Haproxy {
  port: number;
  close(): Promise<void>;
}

export async function startHaproxy(backendPort: number): Promise<Haproxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'haproxy-'));
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 200',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 5s',
    '  timeout client 30s',
    '  timeout server 30s',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend service',
    'backend service',
    `  server plants 127.0.0.1:${backendPort}`,
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new Error(`haproxy did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
