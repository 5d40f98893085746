/**
 * The starter dataset (data/*.jsonl): loaded, through the checked import, into an empty
 * embedded database at first start (DEMO_DATA=false starts empty instead).
 */
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { families } from '../db/tables.js';
import { type ImportReport, importDataset } from './import.js';
import { formatProblem, InvalidDataset } from './problems.js';

export const STARTER_DATA_DIR = fileURLToPath(new URL('../../data', import.meta.url));

/** Imports the starter dataset when the database has no families; null if it did nothing. */
export async function loadStarterDataIfEmpty(
  database: Database,
  dir = STARTER_DATA_DIR,
): Promise<ImportReport | null> {
  const [row] = await database.db.select({ n: count() }).from(families);
  if (Number(row?.n ?? 0) > 0) return null;
  try {
    return await importDataset(database, [dir]);
  } catch (error) {
    if (!(error instanceof InvalidDataset)) throw error;
    // Cannot happen with the committed files (test/unit/dataset.test.ts); say where if it does.
    throw new Error(
      `starter dataset in ${dir} is invalid:\n${error.problems.map(formatProblem).join('\n')}`,
      {
        cause: error,
      },
    );
  }
}
