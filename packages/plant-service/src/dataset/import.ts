/**
 * Import: read, check, then upsert every kind in dependency order in one transaction.
 * Any problem anywhere (a bad field, a duplicate, a reference that neither the input nor the
 * database resolves) refuses the whole input with every problem listed, and nothing is written.
 * Import never deletes: records the input does not mention stay as they are.
 */
import type { Readable } from 'node:stream';
import { getTableName, sql } from 'drizzle-orm';
import { withActor } from '../db/actor.js';
import { CHANGE_CHANNEL } from '../db/change-feed.js';
import type { Database, Tx } from '../db/client.js';
import { vacuumAnalyze } from '../db/statistics.js';
import { type CheckResult, checkDataset, unresolvedProblems } from './check.js';
import { KIND, KINDS, type KindName } from './kinds.js';
import { InvalidDataset, type Problem } from './problems.js';
import { readDataset, type SourceRecord } from './read.js';
import { existingSlugs, type KindCounts, upsertKind } from './upsert.js';

export type ImportReport = Record<KindName, KindCounts>;

/** Problems in file order (as the files were read), then by line. */
function ordered(problems: Problem[]): Problem[] {
  const files = new Map<string, number>();
  for (const p of problems) if (!files.has(p.file)) files.set(p.file, files.size);
  return problems
    .map((p, i) => ({ p, i }))
    .sort(
      (x, y) => (files.get(x.p.file) ?? 0) - (files.get(y.p.file) ?? 0) || x.p.line - y.p.line || x.i - y.i,
    )
    .map(({ p }) => p);
}

async function databaseProblems(tx: Tx, unresolved: CheckResult['unresolved']): Promise<Problem[]> {
  const existing = new Map<KindName, Set<string>>();
  for (const [target, bySlug] of unresolved) {
    existing.set(target, await existingSlugs(tx, KIND[target], [...bySlug.keys()]));
  }
  return unresolvedProblems(unresolved, existing);
}

/** Imports records already read; throws InvalidDataset (and writes nothing) on any problem. */
export async function importRecords(
  database: Database,
  sources: readonly SourceRecord[],
  readProblems: readonly Problem[] = [],
): Promise<ImportReport> {
  const checked = checkDataset(sources);
  // The change log names the import as the writer of everything it writes.
  const report = await withActor({ kind: 'import' }, () =>
    database.db.transaction(async (tx) => {
      const problems = [
        ...readProblems,
        ...checked.problems,
        ...(await databaseProblems(tx, checked.unresolved)),
      ];
      if (problems.length > 0) throw new InvalidDataset(ordered(problems));
      const byKind = new Map<KindName, Record<string, unknown>[]>(KINDS.map((k) => [k.name, []]));
      for (const source of sources) byKind.get(source.kind.name)?.push(source.record);
      const report = {} as ImportReport;
      for (const kind of KINDS) report[kind.name] = await upsertKind(tx, kind, byKind.get(kind.name) ?? []);
      // Running instances drop their cached responses (db/change-feed.ts); delivered on commit.
      if (Object.values(report).some((c) => c.inserted + c.updated > 0)) {
        await tx.execute(sql.raw(`notify ${CHANGE_CHANNEL}`));
      }
      return report;
    }),
  );
  // Fresh planner statistics for what a bulk write changed (PGlite has no autovacuum).
  const written = KINDS.filter((k) => report[k.name].inserted + report[k.name].updated > 0);
  await vacuumAnalyze(
    database,
    written.map((k) => getTableName(k.table)),
  );
  return report;
}

/** Imports directories, files and `-` (standard input); see read.ts for what each may be. */
export async function importDataset(
  database: Database,
  inputs: readonly string[],
  stdin?: Readable,
): Promise<ImportReport> {
  const { records, problems } = await readDataset(inputs, stdin);
  return importRecords(database, records, problems);
}

/** Checks input without a database: references must resolve within the input itself. */
export async function checkInput(
  inputs: readonly string[],
  stdin?: Readable,
): Promise<{ sources: SourceRecord[]; problems: Problem[] }> {
  const { records, problems } = await readDataset(inputs, stdin);
  const checked = checkDataset(records);
  return {
    sources: records,
    problems: ordered([...problems, ...checked.problems, ...unresolvedProblems(checked.unresolved)]),
  };
}
