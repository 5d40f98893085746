/** Why a deadline's signal aborted when its time ran out. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the time ran out (rather than the parent aborting). */
  timedOut(): boolean;
  /** Stops the timer and detaches from the parent; call it when the guarded work is over. */
  clear(): void;
}

/**
 * A signal that aborts when `parent` aborts or after `ms` (every long action has one).
 * Node 20's `AbortSignal.any([parent, AbortSignal.timeout(ms)])` holds the timeout signal only weakly,
 * and a collected timeout signal never fires, so this keeps its own timer, strongly, until cleared.
 */
export function deadline(parent: AbortSignal | null, ms: number): Deadline {
  const controller = new AbortController();
  let expired = false;
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DeadlineError(ms));
  }, ms);
  const clear = () => {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParentAbort);
  };
  controller.signal.addEventListener('abort', clear, { once: true });
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return { signal: controller.signal, timedOut: () => expired, clear };
}

/** Runs `work` under a deadline and always clears it. */
export async function withDeadline<T>(
  parent: AbortSignal | null,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const guard = deadline(parent, ms);
  try {
    return await work(guard.signal);
  } finally {
    guard.clear();
  }
}
