/**
 * PgBouncer (Debian's /usr/sbin/pgbouncer) on an ephemeral loopback port in front of a PostgreSQL
 * server, in session mode: each client connection keeps one server connection, so named prepared
 * statements and LISTEN work as they do without it. As root, it runs as the `postgres` user (it
 * refuses to run as root).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface Bouncer {
  /** `url` with its host and port replaced by the pooler's. */
  through(url: string): string;
  stop(): Promise<void>;
}

export async function startPgbouncer(serverUrl: string): Promise<Bouncer> {
  if (!existsSync(PGBOUNCER))
    throw new Error(`PgBouncer tests need ${PGBOUNCER} (Debian: apt-get install pgbouncer)`);
  const server = new URL(serverUrl);
  const dir = await mkdtemp(path.join(tmpdir(), 'plant-pgbouncer-'));
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const pidfile = path.join(dir, 'pgbouncer.pid');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port} user=${decodeURIComponent(server.username) || 'postgres'}${
        server.password ? ` password=${decodeURIComponent(server.password)}` : ''
      }`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = session',
      'max_client_conn = 200',
      'default_pool_size = 50',
      `pidfile = ${pidfile}`,
      // The service sets these at connect; PgBouncer passes on only the parameters it knows.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
    await chown(ini, uid, gid);
  }
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER, ini], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const url = (original: string) => {
    const u = new URL(original);
    u.hostname = '127.0.0.1';
    u.port = String(port);
    return u.toString();
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url(serverUrl) });
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`PgBouncer did not start: ${error}\n${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    through: url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // runuser does not forward signals: PgBouncer's own pid.
        const pid = Number((await readFile(pidfile, 'utf8')).trim());
        process.kill(pid, 'SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
