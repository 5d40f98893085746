/**
 * `npm run bench:import`: a 50,000-species import on PostgreSQL, target < 60 s.
 *
 * The data is the starter dataset's 80 families and 50,000 species cloned from its 379 real
 * ones (same fields and text lengths, unique names and slugs), written as a dataset directory
 * (families.jsonl, species.jsonl). Measured:
 * - `npm run plants -- import <dir>` as a user runs it (its own process, end to end), into an
 *   empty database, with its peak RSS;
 * - in-process, the phases: reading the files, checking them, the import (check again, reference
 *   lookups and the upserts, one transaction);
 * - the same import again (nothing changes, nothing is written), and with every species changed;
 * - the export of the result (the GET /api/v1/export stream) to a file.
 * Writes its section of bench/RESULTS.md.
 *
 * Env: BENCH_DATABASE_URL (a PostgreSQL server to create `plant_bench_import` on; default: a
 * throwaway cluster, switched to durable settings: fsync, synchronous_commit and full_page_writes
 * on), BENCH_SPECIES (default 50000).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { checkDataset } from '../src/dataset/check.js';
import { importRecords } from '../src/dataset/import.js';
import { readDataset } from '../src/dataset/read.js';
import { STARTER_DATA_DIR } from '../src/dataset/starter.js';
import { ROWS_PER_STATEMENT } from '../src/dataset/upsert.js';
import { exportToStream } from '../src/dataset/write.js';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { slugify } from '../src/lib/slug.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { durableServer, peakRss, writeSection } from './measure.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const workDir = path.join(packageDir, 'bench', '.work', 'import');
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const SPECIES = Number(process.env.BENCH_SPECIES ?? 50_000);
const TARGET_SECONDS = 60;
const DB_NAME = 'plant_bench_import';

type Rec = Record<string, unknown>;
const readJsonl = async (file: string): Promise<Rec[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec);

/** Writes families.jsonl and species.jsonl; `variant` changes one field of every species. */
async function generate(dir: string, variant: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  const families = await readJsonl(path.join(STARTER_DATA_DIR, 'families.jsonl'));
  const templates = await readJsonl(path.join(STARTER_DATA_DIR, 'species.jsonl'));
  await writeFile(path.join(dir, 'families.jsonl'), families.map((f) => `${JSON.stringify(f)}\n`).join(''));
  const out = createWriteStream(path.join(dir, 'species.jsonl'));
  for (let i = 0; i < SPECIES; i++) {
    const template = templates[i % templates.length] as Rec;
    const name = `${template.name_scientific} bench ${String(i).padStart(5, '0')}`;
    const record = {
      ...template,
      slug: slugify(name),
      name_scientific: name,
      name_en: `${template.name_en} ${i}`,
      wild_bee_count: (i + variant) % 120,
    };
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
  return (await stat(path.join(dir, 'species.jsonl'))).size;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await run();
  return { result, ms: performance.now() - start };
}

/** `npm run plants -- import <dir>`'s script, in its own process; wall time and peak RSS. */
async function cliImport(dir: string, url: string): Promise<{ ms: number; peakMb: number; stdout: string }> {
  const start = performance.now();
  let stdout = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/plants.ts', 'import', dir], {
    cwd: packageDir,
    env: { ...process.env, DATABASE_URL: url, INIT_CWD: packageDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const { result: code, peakMb } = await peakRss(
    child.pid as number,
    () => new Promise<number | null>((resolve) => child.once('exit', resolve)),
  );
  if (code !== 0) throw new Error(`plants import exited with ${code}`);
  return { ms: performance.now() - start, peakMb, stdout };
}

async function main(): Promise<void> {
  const { url: server, settings, stop: stopServer } = await durableServer();
  const url = withDatabase(server, DB_NAME);
  const freshDatabase = async () => {
    await adminQuery(server, `drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(server, `create database ${DB_NAME}`);
    const database = openPostgres({ url, poolSize: 2 });
    await migrate(database);
    return database;
  };

  try {
    const dir = path.join(workDir, 'base');
    const changedDir = path.join(workDir, 'changed');
    const bytes = await generate(dir, 0);
    await generate(changedDir, 1);
    console.log(`generated ${SPECIES} species (${(bytes / 1e6).toFixed(0)} MB of JSON Lines) in ${dir}`);

    // 1. As a user runs it: its own process, empty database.
    await (await freshDatabase()).close();
    const cli = await cliImport(dir, url);
    console.log(`plants import: ${seconds(cli.ms)} s, peak RSS ${cli.peakMb.toFixed(0)} MB\n${cli.stdout}`);

    // 2. In-process phases, on an empty database again.
    const database = await freshDatabase();
    const read = await timed(() => readDataset([dir]));
    const check = await timed(async () => checkDataset(read.result.records));
    if (read.result.problems.length + check.result.problems.length > 0)
      throw new Error('generated data is invalid');
    const first = await timed(() => importRecords(database, read.result.records));
    const again = await timed(() => importRecords(database, read.result.records));
    const changedRead = await readDataset([changedDir]);
    const changed = await timed(() => importRecords(database, changedRead.records));
    const exportFile = path.join(workDir, 'export.ndjson');
    const exported = await timed(() => exportToStream(database, createWriteStream(exportFile)));
    const exportBytes = (await stat(exportFile)).size;
    await database.close();
    for (const [label, r] of [
      ['first', first],
      ['again', again],
      ['changed', changed],
    ] as const) {
      console.log(`${label}: ${seconds(r.ms)} s`, r.result.species);
    }
    console.log(`export: ${seconds(exported.ms)} s, ${(exportBytes / 1e6).toFixed(0)} MB`);

    const met = cli.ms / 1000 < TARGET_SECONDS;
    const species = (n: number) => n.toLocaleString('en-US');
    await writeSection(
      resultsFile,
      'bench:import',
      `
## Bulk import — \`npm run bench:import\`

Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (shared with other work), Node ${process.version};
${settings}. Data: the starter dataset's 80 families and ${species(SPECIES)} species cloned from its 379 real
ones (same fields and text lengths, unique names and slugs), ${(bytes / 1e6).toFixed(0)} MB of JSON Lines.
The import reads and checks every record before it writes, then upserts in one transaction: per
batch of ${ROWS_PER_STATEMENT} records one \`UPDATE\` of the stored rows that change and one \`INSERT\` of the new
ones, each taking the batch as a single JSON parameter (\`json_to_recordset\`).

| run | time | notes |
|---|---|---|
| \`npm run plants -- import <dir>\`, empty database | **${seconds(cli.ms)} s** | own process, end to end; peak RSS ${cli.peakMb.toFixed(0)} MB |
| in-process: read the files | ${seconds(read.ms)} s | JSON Lines parsing |
| in-process: check | ${seconds(check.ms)} s | schemas, duplicates, references |
| in-process: import, empty database | ${seconds(first.ms)} s | check + upserts + commit: ${species(first.result.species.inserted)} species inserted |
| in-process: the same import again | ${seconds(again.ms)} s | ${species(again.result.species.unchanged)} unchanged, nothing written |
| in-process: every species changed | ${seconds(changed.ms)} s | ${species(changed.result.species.updated)} updated |
| export of the result (GET /api/v1/export's stream) | ${seconds(exported.ms)} s | ${(exportBytes / 1e6).toFixed(0)} MB, ${species(Object.values(exported.result).reduce((a, b) => a + b, 0))} records |

Target: a ${species(SPECIES)}-species import in under ${TARGET_SECONDS} s on PostgreSQL — ${seconds(cli.ms)} s: **${met ? 'met' : 'missed'}**.
`,
    );
    console.log(`wrote ${resultsFile}`);
  } finally {
    await adminQuery(server, `drop database if exists ${DB_NAME} with (force)`).catch(() => undefined);
    await stopServer();
    await rm(path.join(workDir, 'export.ndjson'), { force: true });
  }
}

await main();
