/**
 * A data version that every committed write moves forward, so in-process caches know when to
 * drop what they hold. With PostgreSQL, writes are also announced with NOTIFY and every instance
 * LISTENs, so a write on one instance invalidates the caches of all. While the LISTEN connection
 * is down, the feed reports itself not live and caches must not serve.
 */
import { type Backoff, backoffDelay } from '@plants/common/backoff';
import pg from 'pg';

export const CHANGE_CHANNEL = 'plant_data_changed';
/** Reconnecting the LISTEN connection: a quarter second at first, at most ten seconds apart. */
const RECONNECT: Backoff = { firstMs: 250, maxMs: 10_000 };

export interface ChangeFeed {
  /** Increases whenever data may have changed. */
  readonly version: number;
  /** False while changes from other instances could be missed. */
  readonly live: boolean;
  /** Call after a write committed. */
  changed(): void;
  close(): Promise<void>;
}

/** For a database only this process writes to (PGlite). */
export function localChangeFeed(): ChangeFeed {
  let version = 0;
  return {
    get version() {
      return version;
    },
    live: true,
    changed: () => {
      version++;
    },
    close: async () => {},
  };
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/** The code and message of a connection error: one log line, no stack. */
function describe(error: unknown): { code?: unknown; reason?: string } {
  if (!error) return {};
  return { code: (error as { code?: unknown }).code, reason: (error as Error).message };
}

/** For PostgreSQL shared by several instances: LISTEN on a dedicated connection, NOTIFY on writes. */
export async function postgresChangeFeed(url: string, log: Logger): Promise<ChangeFeed> {
  let version = 0;
  let live = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  const notifier = new pg.Pool({ connectionString: url, max: 1 });
  notifier.on('error', () => {});

  async function connect(): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', () => {
      version++;
    });
    const lost = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      live = false;
      version++;
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
    version++;
    live = true;
    failures = 0;
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
      return version;
    },
    get live() {
      return live;
    },
    changed() {
      version++;
      notifier.query(`NOTIFY ${CHANGE_CHANNEL}`).catch((error) => {
        log.warn(describe(error), 'change feed: NOTIFY failed');
      });
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      live = false;
      await client?.end().catch(() => {});
      await notifier.end();
    },
  };
}
