/**
 * `npm run plants -- <command>`: bulk import and export of the plant data, and pruning the change
 * log. Uses the
 * server's configuration: DATABASE_URL, else the embedded database under DATA_DIR (stop the
 * server first: an embedded database has one user at a time).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { checkInput, importDataset } from '../dataset/import.js';
import { KINDS } from '../dataset/kinds.js';
import { formatProblem, InvalidDataset } from '../dataset/problems.js';
import {
  type ExportCounts,
  exportToDirectory,
  exportToStream,
  FILE_FORMATS,
  type FileFormat,
} from '../dataset/write.js';
import { type Database, openPglite, openPostgres } from '../db/client.js';
import { DirectoryLocked } from '../db/directory-lock.js';
import { migrate } from '../db/migrate.js';
import { changeRepository } from '../resources/changes/repository.js';

const USAGE = `Usage: npm run plants -- <command>

  import <dir|file|->...          Upsert records by slug from dataset directories (families.jsonl or
                                  .csv, species..., see data/README.md), single resource files, or
                                  the typed stream of GET /api/v1/export (a file, or - for stdin).
                                  One transaction: on any problem, every problem is listed and
                                  nothing is written.
  export <dir> [--format jsonl|csv]
                                  Write one file per resource (default JSON Lines).
  export -                        Write the typed stream (as GET /api/v1/export) to stdout
                                  (use npm run -s, so npm prints no banner into it).
  check <dir|file|->...           Check files without a database: schemas, duplicates, and
                                  references within the files.
  prune-changes --before <date>   Delete the change log's entries committed before the date (an
                                  ISO 8601 date or date-time; a date alone is midnight UTC). The
                                  log is kept for ever unless pruned; feed readers asking from
                                  before the pruned part are told to read the export again.

Database: DATABASE_URL, else the embedded database under DATA_DIR (as the server).`;

class UsageError extends Error {}

async function openDatabase(): Promise<Database> {
  const config = loadConfig();
  const database = config.databaseUrl
    ? openPostgres({ url: config.databaseUrl, poolSize: 2 })
    : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  await migrate(database);
  return database;
}

async function withDatabase<T>(run: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase();
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}

const KIND_WIDTH = Math.max(...KINDS.map((k) => k.name.length)) + 2;

function printProblems(problems: readonly import('../dataset/problems.js').Problem[]): void {
  for (const problem of problems) console.error(formatProblem(problem));
}

async function runImport(inputs: string[]): Promise<void> {
  if (inputs.length === 0) throw new UsageError('import: name at least one directory or file');
  const report = await withDatabase((database) => importDataset(database, inputs, process.stdin));
  for (const kind of KINDS) {
    const c = report[kind.name];
    console.log(
      `${kind.name.padEnd(KIND_WIDTH)}${c.inserted} new, ${c.updated} updated, ${c.unchanged} unchanged`,
    );
  }
}

function printCounts(counts: ExportCounts, where: string): void {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.error(
    `exported ${total} records to ${where} (${KINDS.map((k) => `${counts[k.name]} ${k.name}`).join(', ')})`,
  );
}

async function runExport(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'jsonl' } },
  });
  const [target, ...rest] = positionals;
  if (!target || rest.length > 0) throw new UsageError('export: name one directory, or - for stdout');
  if (!(FILE_FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`export: --format must be ${FILE_FORMATS.join(' or ')}`);
  }
  if (target === '-') {
    printCounts(await withDatabase((database) => exportToStream(database, process.stdout)), 'stdout');
    return;
  }
  const format = values.format as FileFormat;
  printCounts(await withDatabase((database) => exportToDirectory(database, target, format)), target);
}

async function runCheck(inputs: string[]): Promise<void> {
  if (inputs.length === 0) throw new UsageError('check: name at least one directory or file');
  const { sources, problems } = await checkInput(inputs, process.stdin);
  if (problems.length > 0) throw new InvalidDataset(problems);
  console.log(`${sources.length} records, no problems`);
}

async function runPruneChanges(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, options: { before: { type: 'string' } } });
  if (positionals.length > 0 || values.before === undefined) {
    throw new UsageError('prune-changes: give --before <date>');
  }
  const before = new Date(values.before);
  if (!/^\d{4}-\d\d-\d\d/.test(values.before) || Number.isNaN(before.getTime())) {
    throw new UsageError(`prune-changes: --before '${values.before}' is not an ISO 8601 date or date-time`);
  }
  const { deleted, pruned_through } = await withDatabase((database) =>
    database.db.transaction((tx) => changeRepository.prune(tx, before)),
  );
  console.log(
    `pruned ${deleted} changes committed before ${before.toISOString()} (positions up to ${pruned_through})`,
  );
}

async function main(argv: string[]): Promise<number> {
  // npm runs this in the package folder; paths are meant relative to where the user typed.
  process.chdir(process.env.INIT_CWD ?? process.cwd());
  const [command, ...args] = argv;
  try {
    if (command === 'import') await runImport(args);
    else if (command === 'export') await runExport(args);
    else if (command === 'check') await runCheck(args);
    else if (command === 'prune-changes') await runPruneChanges(args);
    else if (command === undefined || command === 'help' || command === '--help') console.log(USAGE);
    else throw new UsageError(`unknown command '${command}'`);
    return 0;
  } catch (error) {
    if (error instanceof InvalidDataset) {
      printProblems(error.problems);
      console.error(error.message);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof DirectoryLocked) {
      console.error(error.message);
      return 1;
    }
    console.error(error);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
