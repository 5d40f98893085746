/**
 * Gives memory back to the system after the in-memory indexes are (re)built. A build leaves the
 * snapshot it replaces and its own scratch arrays behind as garbage, and grows the young
 * generation on the way; V8 keeps all of that resident until a full collection that shrinks the
 * heap, which an idle service does not reach (on the benchmark's data: 252 MB resident 10 s after
 * start and still 70 s after; 170 MB after one such collection).
 *
 * So one collection of all available garbage runs a moment after the builds settle (builds that
 * finish within that moment of each other share one). It pauses the service for 60–90 ms on that
 * data, at most once per round of builds, and builds of a stale index are spaced at least ten times
 * their own duration apart. It needs `gc`, which `--expose-gc` provides (`npm start` passes it);
 * without it nothing happens.
 */

/** How long after the last build the collection runs, so builds finishing together share one. */
const SETTLE_MS = 2_000;

export interface MemoryRelease {
  /** A build has finished: collect once the builds have settled. */
  soon(): void;
  /** Cancels a pending collection (the service is closing). */
  close(): void;
}

export function memoryRelease({
  log,
  gc = globalThis.gc,
  settleMs = SETTLE_MS,
}: {
  log: { info(obj: object, msg: string): void };
  gc?: NodeJS.GCFunction | undefined;
  settleMs?: number;
}): MemoryRelease {
  if (!gc) return { soon() {}, close() {} };
  let timer: NodeJS.Timeout | undefined;
  const collect = () => {
    timer = undefined;
    const mb = (bytes: number) => Math.round(bytes / 1_048_576);
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    gc({ type: 'major', flavor: 'last-resort' });
    log.info(
      {
        ms: Math.round(performance.now() - started),
        rssBeforeMb: mb(rssBefore),
        rssAfterMb: mb(process.memoryUsage.rss()),
      },
      'memory released after an index build',
    );
  };
  return {
    soon() {
      clearTimeout(timer);
      timer = setTimeout(collect, settleMs);
      // A pending collection never keeps the process alive.
      timer.unref();
    },
    close() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
