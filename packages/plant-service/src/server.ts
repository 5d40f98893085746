/**
 * Entry point: configuration, database (with migrations and, on an empty embedded database, the
 * starter dataset), then listen. Closes cleanly on SIGINT/SIGTERM.
 */
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { startSessionPurge } from './auth/session-purge.js';
import { ConfigError, loadConfig } from './config.js';
import { loadStarterDataIfEmpty } from './dataset/starter.js';
import { localChangeFeed, postgresChangeFeed } from './db/change-feed.js';
import { type Database, openPglite, openPostgres } from './db/client.js';
import { migrate } from './db/migrate.js';
import { keepStatisticsCurrent } from './db/statistics.js';
import { startOrphanSweep } from './resources/images/orphan-sweep.js';
import { createObjectStore } from './storage/create-store.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const log = pino({ level: config.logLevel });

  // npm run dev: an embedded identity provider to sign in with (imported only then: it is a
  // dev dependency, and config.ts refuses DEV_IDP with NODE_ENV=production).
  let devIdp: { close(): Promise<void> } | undefined;
  if (config.auth.devIdp.enabled) {
    const { startDevLogin } = await import('./dev-idp/dev-login.js');
    ({ config, idp: devIdp } = await startDevLogin(config, process.env, log));
  }

  const database: Database = config.databaseUrl
    ? openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize })
    : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  log.info(
    { backend: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : undefined },
    'database',
  );
  await migrate(database);

  if (config.demoData && database.kind === 'pglite') {
    const loaded = await loadStarterDataIfEmpty(database);
    if (loaded) log.info(loaded, 'empty embedded database: starter dataset loaded');
  }

  // PGlite has no autovacuum: statistics are refreshed at start (before listening) and while running.
  const stopStatistics = database.kind === 'pglite' ? await keepStatisticsCurrent(database, log) : () => {};

  const store = createObjectStore(config.storage.store);
  log.info({ backend: store.kind }, 'image store');

  const changeFeed = config.databaseUrl
    ? await postgresChangeFeed(config.databaseUrl, log)
    : localChangeFeed();
  const app = await buildApp({ config, database, store, changeFeed, logger: { level: config.logLevel } });
  const stopPurge = startSessionPurge(database, config, app.log);
  const { gcIntervalMs: intervalMs, gcGraceMs: graceMs } = config.storage;
  const stopSweep = startOrphanSweep(database, store, { intervalMs, graceMs }, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopPurge();
    stopSweep();
    stopStatistics();
    await app.close();
    await changeFeed.close();
    await store.close();
    await devIdp?.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
