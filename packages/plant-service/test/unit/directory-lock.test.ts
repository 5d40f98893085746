/**
 * One process at a time on an embedded database directory: a second opener — in this process or
 * a CLI command in another — refuses at once, naming the holder; a lock left by a process that is
 * gone is taken over.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { DirectoryLocked } from '../../src/db/directory-lock.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-lock-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function cli(script: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const { DATABASE_URL: _url, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: PACKAGE_DIR, env: { ...env, DATA_DIR: dir, LOG_LEVEL: 'silent' } },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

describe('the embedded database directory lock', () => {
  it('refuses a second opener in the same process, naming the holder, until the first closes', {
    timeout: 120_000,
  }, async () => {
    const dataDir = path.join(dir, 'same');
    const first = await openPglite({ dataDir });
    const second = openPglite({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DirectoryLocked);
    await expect(second).rejects.toThrow(`in use by process ${process.pid}`);
    await first.close();
    const again = await openPglite({ dataDir });
    await again.close();
  });

  it('takes over a lock whose process is gone (a crash)', { timeout: 120_000 }, async () => {
    const dataDir = path.join(dir, 'stale');
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.once('exit', resolve));
    await writeFile(`${dataDir}.lock`, `${pid}\n`);
    const database = await openPglite({ dataDir });
    expect((await readFile(`${dataDir}.lock`, 'utf8')).trim()).toBe(String(process.pid));
    await database.close();
  });

  it('makes CLI import, export, migrate and storage:gc refuse at once while a service holds the directory', {
    timeout: 120_000,
  }, async () => {
    const held = await openPglite({ dataDir: path.join(dir, 'pglite') });
    try {
      const runs = await Promise.all([
        cli('src/cli/plants.ts', ['import', path.join(PACKAGE_DIR, 'data')]),
        cli('src/cli/plants.ts', ['export', '-']),
        cli('src/cli/migrate.ts', []),
        cli('src/cli/storage-gc.ts', []),
      ]);
      for (const run of runs) {
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(`in use by process ${process.pid}`);
      }
    } finally {
      await held.close();
    }
  });
});
