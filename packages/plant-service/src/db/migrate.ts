import { fileURLToPath } from 'node:url';
import type { Database } from './client.js';

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Applies the committed migrations that the database has not seen yet. */
export async function migrate(database: Database): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: the two migrators take their own driver's db type
  const db = database.db as any;
  if (database.kind === 'postgres') {
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    await migratePg(db, { migrationsFolder });
  } else {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(db, { migrationsFolder });
  }
}
