/**
 * Builds one migrated PGlite database per test run and saves it as a tarball; every test file
 * clones it (a fresh PGlite takes seconds to initialise; loading a dump is much faster).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { newPglite, openPglite } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'plant-pglite-'));
  const file = path.join(dir, 'template.tar');
  const instance = await newPglite();
  const database = await openPglite({ instance });
  await migrate(database);
  const dump = await instance.dumpDataDir('none');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
    postgresTemplate: string;
  }
}
