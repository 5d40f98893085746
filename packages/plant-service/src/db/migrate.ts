import { fileURLToPath } from 'node:url';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.js';

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Applies the committed migrations that the database has not seen yet. */
export async function migrate(database: Database): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: the two migrators take their own driver's db type
  const db = database.db as any;
  if (database.kind === 'postgres') await migratePg(db, { migrationsFolder });
  else await migratePglite(db, { migrationsFolder });
}
