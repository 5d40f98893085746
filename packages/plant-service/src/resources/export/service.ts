/**
 * The export dump. The dump of one version is written once, from one read-only snapshot,
 * to a spool file, and every request for that version streams the file: the database is read in
 * batches and for as long as the dump takes to write, never for as long as a slow client takes to
 * read (the embedded database serves one query at a time), and no dump is held in memory.
 * Mirrors that send the ETag back get 304 for the cost of one small query.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportBatches, exportLine, exportVersion, READ_SNAPSHOT } from '../../dataset/export.js';
import type { Database } from '../../db/client.js';

export interface Dump {
  /** The version the dump was taken at (its ETag, unquoted). */
  version: string;
  body: Readable;
}

export function exportService(database: Database) {
  let spoolDir: string | undefined;
  let current: { version: string; file: string } | undefined;
  // One dump is written at a time; requests arriving meanwhile wait and then share it.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => {
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };

  async function writeDump(): Promise<{ version: string; file: string }> {
    spoolDir ??= await mkdtemp(path.join(tmpdir(), 'plant-export-'));
    const file = path.join(spoolDir, `${randomUUID()}.ndjson`);
    try {
      return await database.db.transaction(async (tx) => {
        // Version and records from the same snapshot: the ETag names exactly these bytes.
        const version = await exportVersion(tx);
        async function* lines() {
          for await (const { kind, records } of exportBatches(tx)) {
            yield records.map((r) => exportLine(kind, r)).join('');
          }
        }
        await pipeline(Readable.from(lines()), createWriteStream(file));
        return { version, file };
      }, READ_SNAPSHOT);
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }

  return {
    /** The current version; a cheap query (dataset/export.ts exportVersion). */
    version: () => exportVersion(database.db),

    /** A dump of the current data: the one already written if the data has not changed since. */
    open(): Promise<Dump> {
      return exclusive(async () => {
        // Read again inside the queue: a dump written while this request waited may be current.
        if (current?.version !== (await exportVersion(database.db))) {
          const previous = current;
          current = await writeDump();
          // Streams still reading the previous file keep it open; the name goes now.
          if (previous) await rm(previous.file, { force: true });
        }
        const handle = await open(current.file);
        return { version: current.version, body: handle.createReadStream() };
      });
    },

    close(): Promise<void> {
      return exclusive(async () => {
        if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
        spoolDir = undefined;
        current = undefined;
      });
    },
  };
}

export type ExportService = ReturnType<typeof exportService>;
