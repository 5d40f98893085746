/**
 * Changes to the catalogue as the database announces them: a trigger on every catalogue table
 * (migration 0013) notifies the channel plant_data_changed at commit, whoever wrote (this
 * instance, another one, the command line, psql), and every instance LISTENs. PostgreSQL's
 * LISTEN runs on a connection of its own, reconnected with backoff; while it is down the feed is
 * not live and caches must not serve, since changes could be missed. PGlite delivers its own
 * notifications through its public `listen`.
 */
import type { PGlite } from '@electric-sql/pglite';
import { type Backoff, backoffDelay } from '@plants/common/backoff';
import pg from 'pg';
import type { Database } from './client.js';

export const CHANGE_CHANNEL = 'plant_data_changed';
/** How the LISTEN connection names itself (pg_stat_activity.application_name). */
export const LISTENER_NAME = 'plant-service change feed';
/** Reconnecting the LISTEN connection: a quarter second at first, at most ten seconds apart. */
const RECONNECT: Backoff = { firstMs: 250, maxMs: 10_000 };

export interface ChangeFeed {
  /** Increases with every change announced, and whenever changes may have been missed. */
  readonly version: number;
  /** False while changes could be missed (the LISTEN connection is down). */
  readonly live: boolean;
  /** Called on every version increase. */
  onChange(listener: () => void): void;
  /**
   * Resolves once the announcements of every change committed before the call have arrived, so a
   * write's own response never precedes its invalidation.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/** The code and message of a connection error: one log line, no stack. */
function describe(error: unknown): { code?: unknown; reason?: string } {
  if (!error) return {};
  return { code: (error as { code?: unknown }).code, reason: (error as Error).message };
}

/** A version counter with listeners. */
function versions() {
  let version = 0;
  const listeners: (() => void)[] = [];
  return {
    get version() {
      return version;
    },
    bump() {
      version++;
      for (const listener of listeners) listener();
    },
    onChange(listener: () => void) {
      listeners.push(listener);
    },
  };
}

/**
 * PGlite: its notifications come back with the statement that committed them, before that
 * statement's promise resolves, so the feed is settled whenever it is asked.
 */
export async function pgliteChangeFeed(pglite: PGlite): Promise<ChangeFeed> {
  const v = versions();
  const unlisten = await pglite.listen(CHANGE_CHANNEL, () => v.bump());
  let live = true;
  return {
    get version() {
      return v.version;
    },
    get live() {
      return live;
    },
    onChange: v.onChange,
    settled: async () => {},
    async close() {
      live = false;
      if (!pglite.closed) await unlisten();
    },
  };
}

/** PostgreSQL shared by several instances: LISTEN on a dedicated connection. */
export async function postgresChangeFeed(url: string, log: Logger): Promise<ChangeFeed> {
  const v = versions();
  let live = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url, application_name: LISTENER_NAME });
    client.on('notification', () => v.bump());
    const lost = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      live = false;
      v.bump();
      if (!closed) {
        log.warn(describe(error), 'change feed: LISTEN connection lost; cache bypassed until it is back');
        schedule();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      // A connection that failed to LISTEN is closed here, or every retry would leave one open.
      await client.end().catch(() => {});
      throw error;
    }
    listener = client;
    // Anything may have changed while we were not listening.
    live = true;
    failures = 0;
    v.bump();
  }

  function schedule(): void {
    failures++;
    retry = setTimeout(
      () => {
        // Not logged per attempt: the loss was, and the database's own state change is.
        connect().catch(() => schedule());
      },
      backoffDelay(failures, RECONNECT),
    );
    retry.unref();
  }

  try {
    await connect();
  } catch (error) {
    log.warn(describe(error), 'change feed: LISTEN failed; cache bypassed until it works');
    schedule();
  }

  return {
    get version() {
      return v.version;
    },
    get live() {
      return live;
    },
    onChange: v.onChange,
    async settled() {
      // A commit signals the listening backend before the writer hears of it; that backend sends
      // the notification before it reads the next query, so one round trip on the LISTEN
      // connection delivers every notification committed before it.
      await listener?.query('select 1').catch(() => {});
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      live = false;
      await client?.end().catch(() => {});
    },
  };
}

/** The feed for `database`'s backend. */
export function changeFeedFor(database: Database, log: Logger): Promise<ChangeFeed> {
  if (database.pglite) return pgliteChangeFeed(database.pglite);
  if (!database.url) throw new Error('change feed: a PostgreSQL database without a URL');
  return postgresChangeFeed(database.url, log);
}
