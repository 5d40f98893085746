/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded database. */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { openPglite, openPostgres } from '../db/client.js';
import { DirectoryLocked } from '../db/directory-lock.js';
import { migrate } from '../db/migrate.js';

try {
  const config = loadConfig();
  const database = config.databaseUrl
    ? openPostgres({ url: config.databaseUrl, poolSize: 1 })
    : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  await migrate(database);
  await database.close();
  console.log(`migrations applied (${database.kind})`);
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof DirectoryLocked ? error.message : error);
  process.exit(1);
}
