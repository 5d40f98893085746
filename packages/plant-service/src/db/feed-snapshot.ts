/**
 * A snapshot of the database held in memory (an index of it), valid for one data version of the
 * change feed. It is served only while the feed is live and no write has moved the version since
 * the snapshot was read; a stale snapshot is rebuilt in the background, no sooner after the last
 * build than ten times that build took (at least a second), so a stream of writes costs the
 * database a bounded share of its time. Until then, callers answer from the database.
 */
import type { ChangeFeed } from './change-feed.js';

/** The shortest pause between two builds, and the pause as a multiple of the last build's time. */
const MIN_REBUILD_GAP_MS = 1_000;
const REBUILD_GAP_FACTOR = 10;

/** A record as read, with its row version (`xmin`, which every update changes). */
export interface RowVersion {
  id: string;
  xmin: string;
}

/** Records an index chose, and whether the records read for them are the versions it chose. */
export interface Chosen {
  /** In the order the answer lists them. */
  ids: string[];
  holds(rows: readonly RowVersion[]): boolean;
}

/**
 * Whether `rows` are exactly the records at the snapshot's positions `at`, each the row version the
 * snapshot read (`idAt` and `xminAt` read a position's id and version).
 */
export function sameVersions(
  at: readonly number[],
  rows: readonly RowVersion[],
  idAt: (i: number) => string,
  xminAt: (i: number) => number,
): boolean {
  if (rows.length !== at.length) return false;
  const xmin = new Map(rows.map((row) => [row.id, Number(row.xmin)]));
  return at.every((i) => xmin.get(idAt(i)) === xminAt(i));
}

/** What every in-memory index of the database, and the snapshot under it, can be asked. */
export interface InMemoryIndex {
  /** Builds now unless the snapshot is current (for tests and a warm start). */
  refresh(): Promise<void>;
  /** Stops building (a build in progress ends after its current chunk) and waits for it. */
  close(): Promise<void>;
}

export interface FeedSnapshot<S> extends InMemoryIndex {
  /** The snapshot if it is current, else undefined (and a rebuild is started when due). */
  usable(): S | undefined;
  /** Whether `snap` is still the current snapshot of the current data version. */
  holds(snap: S): boolean;
}

/** Where an index reports its builds (a pino logger, or anything with its two methods). */
export interface SnapshotLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** How an in-memory index of the database is built. */
export interface IndexOptions {
  /** Records read per statement while building. */
  buildChunk?: number;
  /** Called after each completed build with its duration. */
  onBuilt?: (ms: number) => void;
}

/**
 * `build` reads the snapshot; it should check `closed()` between the statements it runs and
 * return undefined once it is true.
 */
export function feedSnapshot<S>(
  feed: ChangeFeed,
  build: (closed: () => boolean) => Promise<S | undefined>,
  log: SnapshotLog,
  what: string,
  onBuilt?: (ms: number) => void,
): FeedSnapshot<S> {
  let current: { snap: S; version: number } | undefined;
  let building: Promise<void> | undefined;
  let notBefore = 0;
  let closed = false;

  async function run(): Promise<void> {
    // The version before reading: a write committed meanwhile makes the snapshot stale at once.
    const version = feed.version;
    const started = performance.now();
    const snap = await build(() => closed);
    if (snap === undefined) return;
    current = { snap, version };
    const took = performance.now() - started;
    notBefore = Date.now() + Math.max(MIN_REBUILD_GAP_MS, took * REBUILD_GAP_FACTOR);
    log.info({ ms: Math.round(took), version }, `${what}: built`);
    onBuilt?.(took);
  }

  function rebuild(): void {
    if (building || closed || Date.now() < notBefore) return;
    building = run()
      .catch((error: unknown) => {
        notBefore = Date.now() + MIN_REBUILD_GAP_MS;
        log.warn({ reason: (error as Error).message }, `${what}: build failed; the database answers`);
      })
      .finally(() => {
        building = undefined;
      });
  }

  return {
    usable() {
      if (!feed.live) return undefined;
      if (current?.version === feed.version) return current.snap;
      rebuild();
      return undefined;
    },
    holds(snap) {
      return current?.snap === snap && current.version === feed.version;
    },
    async refresh() {
      // A build already under way may have started before the latest write: then one more.
      for (let attempt = 0; attempt < 2 && current?.version !== feed.version && !closed; attempt++) {
        notBefore = 0;
        rebuild();
        await building;
      }
    },
    async close() {
      closed = true;
      await building;
    },
  };
}
