/**
 * A PostgreSQL server of its own that a test can stop, start and restart (pg_ctl), in a temp
 * directory on an ephemeral loopback port: never the shared server other tests use. Uses the
 * machine's PostgreSQL binaries; as root, runs them as the `postgres` user.
 */
import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findBinDir } from '../setup/postgres-cluster.js';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface RestartablePostgres {
  url: string;
  start(): Promise<void>;
  /** pg_ctl stop (or restart) with mode fast or immediate; waits until done. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server (if running) and removes its directory. */
  destroy(): Promise<void>;
}

export async function restartablePostgres(): Promise<RestartablePostgres> {
  const bin = findBinDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'plant-pg-restart-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const tool = (file: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, file), ...args])
      : run(path.join(bin, file), args);
  const dataDir = path.join(dir, 'data');
  await tool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c full_page_writes=off',
  ].join(' ');
  const logFile = path.join(dir, 'server.log');
  let running = false;
  const server: RestartablePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await tool('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode = 'fast') {
      await tool('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async restart(mode) {
      await tool('pg_ctl', [
        '-D',
        dataDir,
        '-l',
        logFile,
        '-o',
        options,
        '-m',
        mode,
        '-w',
        '-t',
        '60',
        'restart',
      ]);
      running = true;
    },
    async destroy() {
      if (running) await server.stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}
