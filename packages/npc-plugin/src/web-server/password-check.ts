import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ServiceUnavailable } from '../errors.js';

/**
 * The one CPU-heavy step of the web server, a bcrypt comparison (tens of milliseconds at cost 10),
 * runs on its own thread: on the event loop it would stall the bot's physics and every other request
 * for each login, and bcryptjs's async API only cuts the work into slices of up to 100 ms. One thread
 * is enough because a verified password is remembered (see AccountStore); checks wait their turn, at
 * most MAX_QUEUED of them, and beyond that a request is refused with a 503 rather than queued for
 * ever.
 */
export const MAX_QUEUED = 64;

/** The worker's code: CommonJS, so it needs no TypeScript loader in the thread. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcrypt);
parentPort.on('message', ({ id, password, hash }) => {
  let ok = false;
  try { ok = bcrypt.compareSync(password, hash); } catch {}
  parentPort.postMessage({ id, ok });
});
`;

interface Pending {
  resolve(ok: boolean): void;
  reject(error: Error): void;
}

export class PasswordCheck {
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  /** Whether `password` matches the bcrypt `hash`; rejects with ServiceUnavailable when the queue is full. */
  compare(password: string, hash: string): Promise<boolean> {
    if (this.#pending.size >= MAX_QUEUED) {
      return Promise.reject(
        new ServiceUnavailable(
          'too many logins are being checked; retry shortly',
          {},
          { retryAfterSeconds: 1 },
        ),
      );
    }
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, password, hash });
    });
  }

  /** Stops the thread; checks still waiting fail. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const bcrypt = createRequire(import.meta.url).resolve('bcryptjs');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcrypt } });
    // An idle checker must not keep the process alive.
    worker.unref();
    worker.on('message', ({ id, ok }: { id: number; ok: boolean }) => {
      this.#pending.get(id)?.resolve(ok);
      this.#pending.delete(id);
    });
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new ServiceUnavailable('the password check stopped; retry')));
    this.#worker = worker;
    return worker;
  }
}
