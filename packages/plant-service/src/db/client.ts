/**
 * One database interface, two backends: PostgreSQL through node-postgres when DATABASE_URL is
 * set, otherwise PGlite (embedded PostgreSQL in WebAssembly) persisted under DATA_DIR. The same
 * drizzle queries run on both.
 */
import { mkdir } from 'node:fs/promises';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { attributeWrites } from './actor.js';
import { databaseUnreachable } from './constraints.js';
import { lockDirectory } from './directory-lock.js';
import { type Reachability, type ReachabilityLog, watchReachability } from './reachability.js';
import * as tables from './tables.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof tables>;
/** A transaction handle; the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  /** The connection URL (PostgreSQL only). */
  readonly url?: string;
  /** Connections open, idle, and queries waiting for one (PostgreSQL's pool only). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  /** The embedded instance (PGlite only), for its LISTEN (db/change-feed.ts). */
  readonly pglite?: PGlite;
  /** False while PostgreSQL cannot be reached (see reachability.ts); PGlite always is. */
  readonly reachable?: () => boolean;
  /** Every statement's duration in seconds, on both backends (for the metrics). */
  readonly statements?: StatementClock;
  close(): Promise<void>;
}

/** Times the promise forms of the public query entry points and tells whoever listens. */
export interface StatementClock {
  /** Calls `observe` with each statement's duration in seconds; returns the way to stop. */
  listen(observe: (seconds: number) => void): () => void;
}

function statementClock(): StatementClock & { time(run: () => unknown): unknown } {
  const listeners = new Set<(seconds: number) => void>();
  return {
    listen(observe) {
      listeners.add(observe);
      return () => listeners.delete(observe);
    },
    time(run) {
      if (listeners.size === 0) return run();
      const start = performance.now();
      const result = run();
      // Callback forms (which pg's pool uses internally) return nothing and are not timed twice.
      if (!(result instanceof Promise)) return result;
      return result.finally(() => {
        const seconds = (performance.now() - start) / 1000;
        for (const observe of listeners) observe(seconds);
      });
    },
  };
}

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  /** Where the database going away and coming back is logged (once per change); silent by default. */
  log?: ReachabilityLog;
}

/** A pool connect that takes longer is an unreachable database, not a request left hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

export function openPostgres({ url, poolSize = 10, log = silent }: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  const reachability = watchReachability(url, log);
  // A client losing its connection must not crash the process, whether idle (the pool's own
  // listener is attached only then) or checked out by a request (which gets the error too).
  pool.on('error', (error) => reachability.lost(error));
  pool.on('connect', (client) => client.on('error', (error) => reachability.lost(error)));
  const statements = statementClock();
  watchQueries(pool, reachability, statements);
  return {
    db: attributeWrites(drizzlePg({ client: pool, schema: tables }) as unknown as Db),
    kind: 'postgres',
    url,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    reachable: () => reachability.reachable,
    statements,
    close: async () => {
      reachability.close();
      await pool.end();
    },
  };
}

const silent: ReachabilityLog = { warn: () => {}, info: () => {} };

type Callable = (...args: unknown[]) => unknown;

/**
 * Routes every query's outcome through `reachability`: the promise forms drizzle uses of
 * `pool.query`, `pool.connect` and a checked-out client's `query` (callback forms, which the pool
 * uses internally, pass through untouched).
 *
 * A checked-out client whose connection is lost goes back to the pool at once (which discards
 * it), and its holder's own release becomes a no-op: drizzle releases a transaction's client only
 * once `begin` has succeeded, so a `begin` on a dead connection would otherwise keep a pool slot
 * forever, and a few outages would leave every request waiting for a connection.
 */
function watchQueries(
  pool: pg.Pool,
  reachability: Reachability,
  clock: ReturnType<typeof statementClock>,
): void {
  const settle = (result: unknown, onLost?: (error: unknown) => void): unknown =>
    result instanceof Promise
      ? result.catch(async (error: unknown) => {
          const translated = await reachability.failed(error);
          if (onLost && databaseUnreachable(translated)) onLost(translated);
          throw translated;
        })
      : result;
  const watched = new WeakSet<pg.PoolClient>();
  const query = pool.query.bind(pool) as Callable;
  pool.query = ((...args: unknown[]) => settle(clock.time(() => query(...args)))) as typeof pool.query;
  const connect = pool.connect.bind(pool) as Callable;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return settle(
      (connect() as Promise<pg.PoolClient>).then((client) => {
        // The pool gives each checkout its own release function.
        const release = client.release;
        let released = false;
        client.release = (error?: Error | boolean) => {
          if (released) return;
          released = true;
          release(error);
        };
        if (!watched.has(client)) {
          watched.add(client);
          const clientQuery = client.query.bind(client) as Callable;
          client.query = ((...a: unknown[]) =>
            settle(
              clock.time(() => clientQuery(...a)),
              (error) => client.release(error as Error),
            )) as typeof client.query;
        }
        return client;
      }),
    );
  }) as typeof pool.connect;
}

/** A new PGlite instance with the extensions the migrations need (pg_trgm for name search). */
export async function newPglite(options: PGliteOptions = {}): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  return new PGlite({ ...options, extensions: { ...options.extensions, pg_trgm } });
}

/**
 * Opens PGlite in `dataDir` (created if missing), or wraps an already open instance. A directory
 * is held by one process at a time (db/directory-lock.ts): a second opener fails at once.
 */
export async function openPglite(source: { dataDir: string } | { instance: PGlite }): Promise<Database> {
  // Imported only when used: PGlite costs ~40 MB of memory just to load.
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  let client: PGlite;
  let unlock = async () => {};
  if ('instance' in source) {
    client = source.instance;
  } else {
    await mkdir(source.dataDir, { recursive: true });
    unlock = await lockDirectory(source.dataDir);
    client = await newPglite({ dataDir: source.dataDir });
  }
  await client.waitReady.catch(async (error: unknown) => {
    await unlock();
    throw error;
  });
  return {
    db: attributeWrites(drizzlePglite({ client, schema: tables }) as unknown as Db),
    kind: 'pglite',
    pglite: client,
    statements: pgliteClock(client),
    // An unclosed PGlite keeps Node from exiting.
    close: async () => {
      if (!client.closed) await client.close();
      await unlock();
    },
  };
}

const pgliteClocks = new WeakMap<PGlite, StatementClock>();

/**
 * Times PGlite's `query` and `exec`, and those of the handle a transaction gets (PGlite runs one
 * statement at a time, so this includes the wait behind other statements). One clock per
 * instance, so an instance opened twice is not timed twice.
 */
function pgliteClock(client: PGlite): StatementClock {
  const known = pgliteClocks.get(client);
  if (known) return known;
  const clock = statementClock();
  pgliteClocks.set(client, clock);
  const timed = <T extends Pick<PGlite, 'query' | 'exec'>>(target: T): T => {
    const query = target.query.bind(target) as Callable;
    const exec = target.exec.bind(target) as Callable;
    target.query = ((...args: unknown[]) => clock.time(() => query(...args))) as T['query'];
    target.exec = ((...args: unknown[]) => clock.time(() => exec(...args))) as T['exec'];
    return target;
  };
  timed(client);
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback: Parameters<PGlite['transaction']>[0]) =>
    transaction((tx) => callback(timed(tx)))) as PGlite['transaction'];
  return clock;
}
