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
import { lockDirectory } from './directory-lock.js';
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
  close(): Promise<void>;
}

export interface PostgresOptions {
  url: string;
  poolSize?: number;
}

export function openPostgres({ url, poolSize = 10 }: PostgresOptions): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return {
    db: drizzlePg({ client: pool, schema: tables }) as unknown as Db,
    kind: 'postgres',
    url,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
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
    db: drizzlePglite({ client, schema: tables }) as unknown as Db,
    kind: 'pglite',
    // An unclosed PGlite keeps Node from exiting.
    close: async () => {
      if (!client.closed) await client.close();
      await unlock();
    },
  };
}
