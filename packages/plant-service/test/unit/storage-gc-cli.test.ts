/** `npm run storage:gc` against the embedded database and the filesystem store, as an operator runs it. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { images } from '../../src/db/tables.js';

const run = promisify(execFile);
const packageDir = path.resolve(import.meta.dirname, '../..');

let dataDir: string;
const entity = randomUUID();
const keptId = randomUUID();
const orphanKey = `species/${entity}/${randomUUID()}.jpg`;
const keptKey = `species/${entity}/${keptId}.jpg`;

async function writeObject(key: string, ageMs: number) {
  const file = path.join(dataDir, 'images', ...key.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'jpeg bytes');
  const when = new Date(Date.now() - ageMs);
  await utimes(file, when, when);
  return file;
}

const gc = () =>
  run('npm', ['run', '--silent', 'storage:gc'], {
    cwd: packageDir,
    env: { ...process.env, DATA_DIR: dataDir, INIT_CWD: packageDir, LOG_LEVEL: 'warn' },
  });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'plant-gc-cli-'));
  const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(database);
  await database.db.insert(images).values({
    id: keptId,
    entity_type: 'species',
    entity_id: entity,
    store_key: keptKey,
    content_type: 'image/jpeg',
    byte_size: 10,
  });
  await database.close();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('npm run storage:gc', () => {
  // One run (each starts npm, tsx and PGlite); the dry run is covered in images-failures.test.ts.
  it('deletes only orphans older than the grace period', async () => {
    const orphan = await writeObject(orphanKey, 2 * 3_600_000);
    const fresh = await writeObject(`species/${entity}/${randomUUID()}.png`, 0);
    const kept = await writeObject(keptKey, 2 * 3_600_000);

    const real = await gc();
    expect(real.stdout).toContain(`deleted ${orphanKey}`);
    expect(real.stdout).toMatch(/filesystem store: 3 objects, 1 orphans deleted, 1 within the grace period/);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(kept)).toBe(true);
  });
});
