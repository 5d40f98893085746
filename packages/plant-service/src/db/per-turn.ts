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

/** A per-turn loader for each database object, made when it is first asked for. */
export function perTurnOf<D extends object, V>(
  load: (db: D, keys: readonly string[]) => Promise<(V | undefined)[]>,
  maxBatchSize: number,
): (db: D) => DataLoader<string, V | undefined> {
  const loaders = new WeakMap<D, DataLoader<string, V | undefined>>();
  return (db) => {
    let loader = loaders.get(db);
    if (!loader) {
      loader = perTurn((keys) => load(db, keys), maxBatchSize);
      loaders.set(db, loader);
    }
    return loader;
  };
}

/** The values of `keys`, in their order (undefined where none was found); a failed load throws. */
export async function loadEach<V>(
  loader: DataLoader<string, V | undefined>,
  keys: readonly string[],
): Promise<(V | undefined)[]> {
  if (keys.length === 0) return [];
  const values = await loader.loadMany(keys);
  for (const value of values) if (value instanceof Error) throw value;
  return values as (V | undefined)[];
}
