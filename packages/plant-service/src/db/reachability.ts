/**
 * Whether PostgreSQL can be reached, as this process last saw it, and the translation of a lost
 * connection into an error the HTTP layer answers with 503 + Retry-After (SQLSTATE class 08).
 *
 * node-postgres reports a dropped socket as a plain Error without a SQLSTATE ("Connection
 * terminated unexpectedly", "not queryable"), indistinguishable by type from a bug in a query. So
 * the database is asked: such an error while the database is known to be down, or when a fresh
 * probe connection fails too, is a lost connection; otherwise it stays what it was (a 500).
 *
 * The state changes are logged once each (down, back up), never per request. Only a probe on a new
 * connection says the database is back: a query finishing on a connection opened before the loss
 * proves nothing while the server is still closing its connections one by one. While down, the
 * probe runs with exponential backoff capped at half a second, so the state is current within
 * about a second of the database's return. Queries are never held back meanwhile: one that
 * succeeds is answered.
 */

import { type Backoff, backoffDelay } from '@plants/common/backoff';
import pg from 'pg';
import { databaseUnreachable } from './constraints.js';
import { connectionLost, sqlState } from './errors.js';

export interface ReachabilityLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface Reachability {
  /** False from a lost connection until a probe (a new connection) succeeds again. */
  readonly reachable: boolean;
  /** Something showed the connection is gone (a client's 'error' event, a refused connect). */
  lost(error: unknown): void;
  /** The error to throw for a failed query (a lost connection becomes SQLSTATE 08006). */
  failed(error: unknown): Promise<unknown>;
  close(): void;
}

/** Probes while down: quickly at first, then at most half a second apart. */
export const PROBE_RETRY: Backoff = { firstMs: 100, maxMs: 500 };
const PROBE_TIMEOUT_MS = 2_000;

export function watchReachability(
  url: string,
  log: ReachabilityLog,
  retry: Backoff = PROBE_RETRY,
): Reachability {
  let reachable = true;
  let downSince = 0;
  let timer: NodeJS.Timeout | undefined;
  let probing: Promise<boolean> | undefined;
  let closed = false;

  /** One probe at a time, on its own connection (the pool may be full of waiting requests). */
  function probe(): Promise<boolean> {
    probing ??= (async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => {});
        probing = undefined;
      }
    })();
    return probing;
  }

  function schedule(attempt: number): void {
    if (closed || reachable) return;
    timer = setTimeout(
      async () => {
        if (await probe()) up();
        else schedule(attempt + 1);
      },
      backoffDelay(attempt, retry),
    );
    timer.unref();
  }

  function up(): void {
    if (reachable) return;
    reachable = true;
    clearTimeout(timer);
    log.info({ downForMs: Date.now() - downSince }, 'database reachable again');
  }

  function lost(error: unknown): void {
    if (!reachable || closed) return;
    reachable = false;
    downSince = Date.now();
    log.warn(
      { code: sqlState(error) ?? (error as { code?: unknown })?.code, reason: (error as Error)?.message },
      'database unreachable: requests get 503 until it answers again',
    );
    schedule(1);
  }

  return {
    get reachable() {
      return reachable;
    },
    lost,
    async failed(error) {
      if (databaseUnreachable(error)) {
        lost(error);
        return error;
      }
      // The server answered with an error of its own: it is up.
      if (sqlState(error)) return error;
      if (reachable && (await probe())) return error;
      lost(error);
      return connectionLost(error);
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
