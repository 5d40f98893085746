/**
 * Entry point: configuration, database (the embedded one migrated now), image store, then listen,
 * and only then (with the port held) PostgreSQL's migrations and the starter dataset on an empty
 * embedded database; until those are done, requests other than /health get a 503. PostgreSQL
 * unreachable at start is not fatal: it is logged once and retried with backoff until it answers.
 * On SIGINT/SIGTERM it stops accepting, answers the requests in flight, and only then closes the
 * database. Every fatal start-up problem is one log line naming its cause
 * and the variable to fix (see startup-errors.ts).
 */
import path from 'node:path';
import { type Backoff, backoffDelay } from '@plants/common/backoff';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { startSessionPurge } from './auth/session-purge.js';
import { ConfigError, loadConfig } from './config.js';
import { loadStarterDataIfEmpty } from './dataset/starter.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import { databaseUnreachable } from './db/constraints.js';
import { migrate } from './db/migrate.js';
import { keepStatisticsCurrent } from './db/statistics.js';
import { StartupError } from './errors.js';
import { startOrphanSweep } from './resources/images/orphan-sweep.js';
import { databaseStartupError, listenStartupError, storeStartupError } from './startup-errors.js';
import { createObjectStore } from './storage/create-store.js';

let log = pino();

/** PostgreSQL unreachable at start: tried again quickly at first, then every few seconds. */
const STARTUP_RETRY: Backoff = { firstMs: 250, maxMs: 5_000 };

async function main(): Promise<void> {
  let config = loadConfig();
  log = pino({ level: config.logLevel });

  // npm run dev: an embedded identity provider to sign in with (imported only then: it is a
  // dev dependency, and config.ts refuses DEV_IDP with NODE_ENV=production).
  let devIdp: { close(): Promise<void> } | undefined;
  if (config.auth.devIdp.enabled) {
    const { startDevLogin } = await import('./dev-idp/dev-login.js');
    ({ config, idp: devIdp } = await startDevLogin(config, process.env, log));
  }

  let database: Database;
  try {
    database = config.databaseUrl
      ? openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize, log })
      : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
    log.info(
      { backend: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
      'database',
    );
    if (database.kind === 'pglite') await migrate(database);
  } catch (error) {
    throw databaseStartupError(error, config);
  }

  // PGlite has no autovacuum: statistics are refreshed at start (before listening) and while running.
  const stopStatistics = database.kind === 'pglite' ? await keepStatisticsCurrent(database, log) : () => {};

  const store = await createObjectStore(config.storage.store);
  try {
    // One listing request: a missing bucket, bad credentials or an unreachable endpoint show now.
    for await (const _ of store.list('')) break;
  } catch (error) {
    throw storeStartupError(error, config);
  }
  log.info({ backend: store.kind }, 'image store');

  let starting = true;
  const app = await buildApp({
    config,
    database,
    store,
    logger: { level: config.logLevel },
    startingUp: () => starting,
  });

  let stopPurge: (() => void) | undefined;
  let stopSweep: (() => void) | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopPurge?.();
    stopSweep?.();
    stopStatistics();
    // Closing the app stops accepting and waits for the requests in flight, which still need the
    // database; it is closed last.
    await app.close();
    await store.close();
    await devIdp?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    stopStatistics();
    await Promise.allSettled([app.close(), store.close(), devIdp?.close()]);
    await database.close().catch(() => {});
    throw listenStartupError(error, config);
  }

  if (database.kind === 'postgres') {
    // Migrating also waits for PostgreSQL to answer; meanwhile /health is alive, the rest is 503.
    for (let attempt = 1; !closing; attempt++) {
      try {
        await migrate(database);
        if (attempt > 1) log.info({ attempts: attempt }, 'PostgreSQL answered: migrations applied');
        break;
      } catch (error) {
        if (closing) return;
        if (!databaseUnreachable(error)) throw databaseStartupError(error, config);
        const delay = backoffDelay(attempt, STARTUP_RETRY);
        // Once, not per attempt: the cause and what to check, then quiet until it answers.
        if (attempt === 1) {
          const { message, variable } = databaseStartupError(error, config);
          log.warn({ variable, retryInMs: delay }, `${message}; retrying until it answers (503 meanwhile)`);
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    if (closing) return;
  }

  if (config.demoData && database.kind === 'pglite') {
    try {
      const loaded = await loadStarterDataIfEmpty(database);
      if (loaded) log.info(loaded, 'empty embedded database: starter dataset loaded');
    } catch (error) {
      throw databaseStartupError(error, config);
    }
  }
  starting = false;
  stopPurge = startSessionPurge(database, config, app.log);
  const { gcIntervalMs: intervalMs, gcGraceMs: graceMs } = config.storage;
  stopSweep = startOrphanSweep(database, store, { intervalMs, graceMs }, app.log);

  if (devIdp) {
    // A plain line, not JSON: the one thing to click after `npm run dev`.
    process.stdout.write(
      `\nSign in: ${config.auth.publicUrl}/auth/oidc/login?return_to=/api/docs\n` +
        '  as admin, editor or any other name (a reader), any password, then "Continue" on the Authorize page.\n\n',
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof StartupError) {
    log.fatal({ variable: error.variable, code: error.code }, error.message);
  } else {
    log.fatal({ err: error }, 'start-up failed');
  }
  process.exit(1);
});
