/**
 * `npm run plants -- import|export` as a user runs it: a separate process configured like
 * the server, through DATABASE_URL (PostgreSQL project) or DATA_DIR (PGlite project).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { type ChangeFeed, postgresChangeFeed } from '../../src/db/change-feed.js';
import { backend } from '../helpers/database.js';
import { adminQuery, withDatabase } from '../helpers/postgres-admin.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
let env: NodeJS.ProcessEnv;
let dropDatabase: (() => Promise<void>) | undefined;
let feed: ChangeFeed | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plants-cli-'));
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  env = { ...rest, INIT_CWD: dir, LOG_LEVEL: 'silent' };
  if (backend === 'postgres') {
    const server = inject('postgresUrl');
    const name = `plant_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(server, `create database ${name} template ${inject('postgresTemplate')}`);
    env.DATABASE_URL = withDatabase(server, name);
    // A running server's cache listens like this (db/change-feed.ts).
    feed = await postgresChangeFeed(env.DATABASE_URL, { warn: () => {} });
    dropDatabase = () => adminQuery(server, `drop database if exists ${name} with (force)`);
  } else {
    env.DATA_DIR = path.join(dir, 'data');
  }
});
afterAll(async () => {
  await feed?.close();
  await dropDatabase?.();
  await rm(dir, { recursive: true, force: true });
});

function plants(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/plants.ts', ...args],
      { cwd: PACKAGE_DIR, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// Each command is a new process that starts tsx and opens the database: slow on a loaded machine.
describe('npm run plants', { timeout: 120_000 }, () => {
  it('import: refuses bad input with every problem on stderr and exit code 1', async () => {
    await writeFile(
      path.join(dir, 'families.jsonl'),
      '{"slug":"rosaceae","name_scientific":"Rosaceae"}\n{"slug":"rosaceae","name_scientific":"Rosaceae"}\n',
    );
    await writeFile(
      path.join(dir, 'species.csv'),
      'slug,family,name_scientific\nmalus-domestica,rosacea,Malus\n',
    );
    // Relative paths are relative to where the user typed the command (INIT_CWD).
    const result = await plants('import', 'families.jsonl', 'species.csv');
    expect(result.stderr.trim().split('\n')).toEqual([
      "families.jsonl:2: slug: slug 'rosaceae' is already on line 1",
      "species.csv:2: family: no family 'rosacea' in the input or the database",
      '2 problems in the input; nothing was imported',
    ]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
  });

  it('import: loads a dataset directory and reports what it did', async () => {
    const before = feed?.version ?? 0;
    const result = await plants('import', STARTER_DATA_DIR);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^family {13}96 new, 0 updated, 0 unchanged$/m);
    expect(result.stdout).toMatch(/^companion {10}\d{3} new, 0 updated, 0 unchanged$/m);
    if (feed) {
      // Instances sharing the database are told to drop their cached responses.
      const deadline = Date.now() + 5_000;
      while (feed.version === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(feed.version).toBeGreaterThan(before);
    }
  });

  it('export: writes one CSV (or JSON Lines) file per resource, or the typed stream to stdout', async () => {
    const exported = await plants('export', 'out', '--format', 'csv');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^exported \d+ records to out \(96 family, /);
    const families = (await readFile(path.join(dir, 'out', 'families.csv'), 'utf8')).split('\n');
    expect(families[0]).toBe('slug,name_scientific,name_en,name_de,description');
    expect(families).toHaveLength(96 + 2);

    const stream = await plants('export', '-');
    expect(stream.code, stream.stderr).toBe(0);
    const lines = stream.stdout.trim().split('\n');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ type: 'family', slug: 'acoraceae' });
    expect(JSON.parse(lines.at(-1) ?? '{}').type).toBe('companion');
  });

  it('prune-changes: deletes the change log before a date, and refuses a bad date', async () => {
    const bad = await plants('prune-changes', '--before', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--before 'yesterday' is not an ISO 8601 date");
    const none = await plants('prune-changes', '--before', '2000-01-01');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(
      /^pruned 0 changes committed before 2000-01-01T00:00:00.000Z \(positions up to 0\)$/m,
    );
    // The import above wrote thousands of entries; all are older than tomorrow.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const all = await plants('prune-changes', '--before', tomorrow);
    expect(all.code, all.stderr).toBe(0);
    const [, deleted, through] =
      /^pruned (\d+) changes .* \(positions up to (\d+)\)$/m.exec(all.stdout) ?? [];
    expect(Number(deleted)).toBeGreaterThan(1000);
    expect(Number(through)).toBe(Number(deleted));
    const again = await plants('prune-changes', '--before', tomorrow);
    expect(again.stdout).toMatch(/^pruned 0 changes .* \(positions up to \d+\)$/m);
    expect(again.stdout).toContain(`positions up to ${through}`);
  });
});
