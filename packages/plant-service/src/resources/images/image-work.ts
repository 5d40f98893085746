/**
 * The one place image pixels are worked on: every full decode of an upload and every resize for
 * `/img?w=` waits here for one of a few turns (IMAGE_WORKERS). sharp runs on libuv's thread pool,
 * which file reads share: were decodes unbounded, a handful of large uploads would hold every
 * thread and stall the plain file reads of `/img` behind them. When IMAGE_QUEUE_MAX more are
 * already waiting, the request is refused at once with 503 and `Retry-After` rather than queued
 * without end.
 */
import PQueue from 'p-queue';
import { ServiceUnavailable } from '../../errors.js';

export interface ImageWorkLimits {
  readonly concurrency: number;
  readonly maxWaiting: number;
}

export const DEFAULT_IMAGE_WORK: ImageWorkLimits = { concurrency: 2, maxWaiting: 32 };

const RETRY_AFTER_SECONDS = 2;

export function imageWork(limits: ImageWorkLimits = DEFAULT_IMAGE_WORK) {
  const queue = new PQueue({ concurrency: limits.concurrency });
  return {
    /** Runs `work` in its turn; ServiceUnavailable at once when too many are waiting. */
    run<T>(work: () => Promise<T>): Promise<T> {
      if (queue.size >= limits.maxWaiting) {
        return Promise.reject(
          new ServiceUnavailable(
            'image processing is busy: too many images are being decoded or resized; try again shortly',
            { retry_after: RETRY_AFTER_SECONDS },
            { retryAfterSeconds: RETRY_AFTER_SECONDS },
          ),
        );
      }
      return queue.add(work) as Promise<T>;
    },
    /** Work running and waiting now (for metrics and tests). */
    get load() {
      return { running: queue.pending, waiting: queue.size };
    },
  };
}

export type ImageWork = ReturnType<typeof imageWork>;
