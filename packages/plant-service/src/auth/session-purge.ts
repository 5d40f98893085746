import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { AuthSettings } from './auth-settings.js';
import { purgeExpiredSessions } from './session-store.js';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Purges expired sessions now and hourly; returns a stop function. */
export function startSessionPurge(
  database: Database,
  config: AuthSettings,
  log: FastifyBaseLogger,
): () => void {
  const policy = { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs };
  const run = () =>
    purgeExpiredSessions(database.db, policy).then(
      (n) => n > 0 && log.info({ purged: n }, 'expired sessions purged'),
      (error) => log.warn({ err: error }, 'session purge failed'),
    );
  void run();
  const timer = setInterval(run, PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
