/**
 * `npm run storage:gc [-- --dry-run]`: deletes image objects that no record refers to and that
 * are older than STORAGE_GC_GRACE_MINUTES (see resources/images/orphan-sweep.ts). The running
 * service does the same every STORAGE_GC_INTERVAL_MINUTES. With the embedded database, stop the
 * service first: only one process may open it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openPglite, openPostgres } from '../db/client.js';
import { DirectoryLocked } from '../db/directory-lock.js';
import { sweepOrphans } from '../resources/images/orphan-sweep.js';
import { createObjectStore } from '../storage/create-store.js';

try {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } });
  const dryRun = values['dry-run'] ?? false;
  const config = loadConfig();
  const database = config.databaseUrl
    ? openPostgres({ url: config.databaseUrl, poolSize: 1 })
    : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  const store = await createObjectStore(config.storage.store);
  try {
    const result = await sweepOrphans(database, store, { graceMs: config.storage.gcGraceMs, dryRun });
    for (const key of result.orphans) console.log(`${dryRun ? 'would delete' : 'deleted'} ${key}`);
    console.log(
      `${store.kind} store: ${result.scanned} objects, ${result.orphans.length} orphans ` +
        `${dryRun ? 'found' : 'deleted'}, ${result.young} within the grace period, ` +
        `${result.foreign} not image keys (kept), ${result.incomplete} interrupted writes removed`,
    );
  } finally {
    await store.close();
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DirectoryLocked ? error.message : error);
  process.exit(1);
}
