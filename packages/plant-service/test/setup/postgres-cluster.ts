/**
 * A throwaway PostgreSQL cluster in a temp directory on an ephemeral loopback port, for running
 * `npm test` where no TEST_DATABASE_URL is given. Uses the machine's PostgreSQL binaries
 * (Debian: /usr/lib/postgresql/<v>/bin); as root, runs them as the `postgres` user.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../helpers/free-port.js';

const run = promisify(execFile);

export function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions)
    if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error(
    'PostgreSQL tests need a server: set TEST_DATABASE_URL (e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres) ' +
      'or install PostgreSQL (Debian: apt-get install postgresql) so the suite can start its own.',
  );
}

export async function startThrowawayCluster(): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = findBinDir();
  const dir = await mkdtemp(path.join(tmpdir(), 'plant-pg-'));
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    uid = Number(stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const cmd = (file: string, args: string[]) =>
    asRoot
      ? (['runuser', ['-u', 'postgres', '--', path.join(bin, file), ...args]] as const)
      : ([path.join(bin, file), args] as const);

  const dataDir = path.join(dir, 'data');
  const [initFile, initArgs] = cmd('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  await run(initFile, [...initArgs]);
  const port = await freePort();
  const [pgFile, pgArgs] = cmd('postgres', [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ]);
  const server = spawn(pgFile, [...pgArgs], { stdio: 'ignore' });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      if (Date.now() > deadline || server.exitCode !== null)
        throw new Error(`throwaway PostgreSQL did not start: ${error}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    stop: async () => {
      if (server.exitCode === null) {
        // runuser does not forward signals, so ask postgres itself to stop.
        const exited = new Promise((r) => server.once('exit', r));
        const [ctlFile, ctlArgs] = cmd('pg_ctl', ['-D', dataDir, 'stop', '-m', 'fast']);
        await run(ctlFile, [...ctlArgs]);
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
