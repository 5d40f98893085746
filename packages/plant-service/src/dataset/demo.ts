/**
 * Demo data: on first start of an empty embedded database, a small set of real plants is loaded
 * (DEMO_DATA=false turns this off).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { families } from '../db/tables.js';
import { DATASET_FILES, type DatasetFile } from './files.js';
import { insertDataset } from './insert.js';

export const DEMO_DIR = fileURLToPath(new URL('../../data/demo', import.meta.url));

export async function readJsonLines(file: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Loads the demo set when the database has no families; returns the counts, or null if it did nothing. */
export async function loadDemoDataIfEmpty(database: Database, dir = DEMO_DIR) {
  const [row] = await database.db.select({ n: count() }).from(families);
  if (Number(row?.n ?? 0) > 0) return null;
  const records = {} as Record<DatasetFile, Record<string, unknown>[]>;
  for (const name of DATASET_FILES) records[name] = await readJsonLines(`${dir}/${name}.jsonl`);
  return database.db.transaction((tx) => insertDataset(tx, records));
}
