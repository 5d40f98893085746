import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
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

/**
 * How many committed migrations the database has not applied (drizzle records each applied one
 * with its folder timestamp in drizzle.__drizzle_migrations). Throws when the database fails.
 */
let committed: number[] | undefined;

export async function pendingMigrations(database: Database): Promise<number> {
  committed ??= readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);
  // Both drivers answer { rows }.
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const [table] = await rows(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`);
  if (!table?.exists) return committed.length;
  const applied = await rows(sql`select created_at from drizzle.__drizzle_migrations`);
  const done = new Set(applied.map((r) => Number(r.created_at)));
  return committed.filter((millis) => !done.has(millis)).length;
}
