/**
 * `plants export`: the database as a dataset directory, one file per kind (data/README.md), in
 * JSON Lines or CSV; or the typed export stream (the `GET /api/v1/export` format) to any stream.
 * Each runs in one read-only snapshot.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Database } from '../db/client.js';
import { toCell } from './csv-cells.js';
import { exportBatches, exportKind, exportLine, READ_SNAPSHOT } from './export.js';
import { KINDS, type Kind, type KindName } from './kinds.js';

export const FILE_FORMATS = ['jsonl', 'csv'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export type ExportCounts = Record<KindName, number>;

async function* csvRows(kind: Kind, batches: AsyncIterable<Record<string, unknown>[]>, counts: ExportCounts) {
  const columns = Object.keys(kind.schema.properties);
  for await (const records of batches) {
    counts[kind.name] += records.length;
    for (const record of records) yield columns.map((c) => toCell(record[c]));
  }
}

async function* jsonLines(
  kind: Kind,
  batches: AsyncIterable<Record<string, unknown>[]>,
  counts: ExportCounts,
) {
  for await (const records of batches) {
    counts[kind.name] += records.length;
    yield records.map((r) => `${JSON.stringify(r)}\n`).join('');
  }
}

/** Writes `<dir>/<file>.<format>` for every kind (an empty kind gets an empty file). */
export async function exportToDirectory(
  database: Database,
  dir: string,
  format: FileFormat,
): Promise<ExportCounts> {
  await mkdir(dir, { recursive: true });
  const counts = Object.fromEntries(KINDS.map((k) => [k.name, 0])) as ExportCounts;
  await database.db.transaction(async (tx) => {
    for (const kind of KINDS) {
      const file = createWriteStream(path.join(dir, `${kind.file}.${format}`));
      const batches = exportKind(tx, kind);
      if (format === 'jsonl') {
        await pipeline(Readable.from(jsonLines(kind, batches, counts)), file);
      } else {
        const csv = stringify({
          header: true,
          columns: Object.keys(kind.schema.properties),
          // An empty string is written quoted (""), so it reads back as "" and not as null.
          cast: { string: (value) => (value === '' ? { value: '', quoted: true } : value) },
        });
        await pipeline(Readable.from(csvRows(kind, batches, counts)), csv, file);
      }
    }
  }, READ_SNAPSHOT);
  return counts;
}

/** Writes the typed export stream (one `{"type": ...}` record per line) to `out`. */
export async function exportToStream(database: Database, out: Writable): Promise<ExportCounts> {
  const counts = Object.fromEntries(KINDS.map((k) => [k.name, 0])) as ExportCounts;
  await database.db.transaction(async (tx) => {
    async function* lines() {
      for await (const { kind, records } of exportBatches(tx)) {
        counts[kind.name] += records.length;
        yield records.map((r) => exportLine(kind, r)).join('');
      }
    }
    await pipeline(Readable.from(lines()), out, { end: false });
  }, READ_SNAPSHOT);
  return counts;
}
