import DataLoader from 'dataloader';

/**
 * A loader that collects the keys asked for in one turn of the event loop, until its I/O callbacks
 * have run, and loads them together, at most `maxBatchSize` at a time. No cache: a loader lives as
 * long as the database object and must not answer from older reads.
 */
export function perTurn<V>(
  load: (keys: readonly string[]) => Promise<(V | undefined)[]>,
  maxBatchSize: number,
): DataLoader<string, V | undefined> {
  return new DataLoader<string, V | undefined>(load, {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (run) => setImmediate(run),
  });
}
