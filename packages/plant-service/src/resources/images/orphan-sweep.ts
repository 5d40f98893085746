/**
 * The orphan sweep ("nothing lost, nothing orphaned"): an upload whose process died
 * between writing the object and committing its record leaves an object nobody refers to; so
 * can a failed object delete. The sweep deletes image objects without a record (originals whose
 * key has no record, copies whose image id has none) once they are older than the grace period,
 * which protects uploads still committing. Objects whose keys are not image keys are left alone.
 * Run by `npm run storage:gc` and periodically by the service (STORAGE_GC_INTERVAL_MINUTES).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { ObjectStore } from '../../storage/object-store.js';
import { parseOriginalKey, parseVariantKey } from './image-keys.js';
import { imageRepository as repo } from './repository.js';

export interface SweepOptions {
  /** Objects modified less than this long ago are kept. */
  graceMs: number;
  /** Report, delete nothing. */
  dryRun?: boolean;
  now?: Date;
}

export interface SweepResult {
  /** Objects listed. */
  scanned: number;
  /** Orphans deleted (or, in a dry run, that would be). */
  orphans: string[];
  /** Objects within the grace period, not judged. */
  young: number;
  /** Objects whose keys are not image keys, left alone. */
  foreign: number;
  /** Interrupted writes removed by the backend (filesystem `.tmp/`). */
  incomplete: number;
}

const BATCH = 500;

export async function sweepOrphans(
  { db }: Database,
  store: ObjectStore,
  { graceMs, dryRun = false, now = new Date() }: SweepOptions,
): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - graceMs);
  const result: SweepResult = { scanned: 0, orphans: [], young: 0, foreign: 0, incomplete: 0 };
  // Listed in full before anything is deleted, so deletes never disturb the listing.
  const originals: { key: string }[] = [];
  const copies: { key: string; imageId: string }[] = [];
  for await (const object of store.list('')) {
    result.scanned++;
    if (object.lastModified > cutoff) {
      result.young++;
      continue;
    }
    const copy = parseOriginalKey(object.key) ? undefined : parseVariantKey(object.key);
    if (copy) copies.push({ key: object.key, imageId: copy.imageId });
    else if (parseOriginalKey(object.key)) originals.push({ key: object.key });
    else result.foreign++;
  }

  for (let i = 0; i < originals.length; i += BATCH) {
    const batch = originals.slice(i, i + BATCH).map((o) => o.key);
    const known = await repo.existingKeys(db, batch);
    result.orphans.push(...batch.filter((key) => !known.has(key)));
  }
  for (let i = 0; i < copies.length; i += BATCH) {
    const batch = copies.slice(i, i + BATCH);
    const known = await repo.existingIds(db, [...new Set(batch.map((c) => c.imageId))]);
    result.orphans.push(...batch.filter((c) => !known.has(c.imageId)).map((c) => c.key));
  }

  if (!dryRun) {
    for (const key of result.orphans) await store.delete(key);
    result.incomplete = (await store.sweepIncomplete?.(cutoff)) ?? 0;
  }
  return result;
}

/** Sweeps now and every `intervalMs` (0: never); runs never overlap. Returns a stop function. */
export function startOrphanSweep(
  database: Database,
  store: ObjectStore,
  { intervalMs, graceMs }: { intervalMs: number; graceMs: number },
  log: FastifyBaseLogger,
): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await sweepOrphans(database, store, { graceMs });
      if (result.orphans.length > 0 || result.incomplete > 0) {
        log.info(
          { deleted: result.orphans.length, incomplete: result.incomplete, scanned: result.scanned },
          'orphan image objects removed',
        );
      }
    } catch (error) {
      log.warn({ err: error }, 'orphan image sweep failed; will retry');
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
