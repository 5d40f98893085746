/**
 * A database as an older release left it: the committed migrations before the one whose tag ends
 * with `tagEnd`, applied to a fresh PGlite. Tests of a migration put data in it as that release
 * wrote it, then run every migration (`migrate`) and check what the migration made of it.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Database, newPglite, openPglite } from '../../src/db/client.js';
import { migrationsFolder } from '../../src/db/migrate.js';

export async function databaseBefore(tagEnd: string, scratchDir: string): Promise<Database> {
  const before = path.join(scratchDir, `before-${tagEnd}`);
  await mkdir(path.join(before, 'meta'), { recursive: true });
  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: { tag: string }[];
  };
  const upTo = journal.entries.findIndex((e) => e.tag.endsWith(tagEnd));
  if (upTo < 0) throw new Error(`no migration tagged …${tagEnd}`);
  const earlier = journal.entries.slice(0, upTo);
  await writeFile(
    path.join(before, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries: earlier }),
  );
  for (const file of await readdir(migrationsFolder)) {
    if (earlier.some((e) => file === `${e.tag}.sql`))
      await copyFile(path.join(migrationsFolder, file), path.join(before, file));
  }
  const database = await openPglite({ instance: await newPglite() });
  await migratePglite(database.db as never, { migrationsFolder: before });
  return database;
}
