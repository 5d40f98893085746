import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { ServiceUnavailable } from '../errors.js';
import { isPbkdf2Hash, verifyPbkdf2 } from './password-hash.js';

/**
 * The one CPU-heavy step of the web server, comparing a password with its hash (tens to hundreds of
 * milliseconds), never runs on the event loop, which also runs the bot's physics: PBKDF2 hashes go to
 * libuv's thread pool, bcrypt hashes (older accounts files) to a worker thread, since bcryptjs's async
 * API only cuts the work into slices of up to 100 ms. One comparison runs at a time, so hashing takes
 * at most one core and a flood of failed logins cannot starve the loop of CPU on a small machine; a
 * verified password is remembered (see AccountStore), so the queue is short. At most MAX_QUEUED wait;
 * beyond that a request is refused with a 503 rather than queued for ever. The bcrypt thread (a V8
 * isolate of its own, about 13 MB resident) is started on the first bcrypt hash and stops after
 * IDLE_MS without work.
 */
export const MAX_QUEUED = 64;
export const IDLE_MS = 10_000;

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
  #idle: NodeJS.Timeout | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #turns = pLimit(1);

  constructor(private readonly idleMs = IDLE_MS) {}

  /**
   * Whether `password` matches `hash` (PBKDF2 or bcrypt; false for anything else); rejects with
   * ServiceUnavailable when the queue is full.
   */
  compare(password: string, hash: string): Promise<boolean> {
    if (this.#turns.activeCount + this.#turns.pendingCount >= MAX_QUEUED) {
      return Promise.reject(
        new ServiceUnavailable(
          'too many logins are being checked; retry shortly',
          {},
          { retryAfterSeconds: 1 },
        ),
      );
    }
    return this.#turns(() =>
      isPbkdf2Hash(hash) ? verifyPbkdf2(password, hash) : this.#bcrypt(password, hash),
    );
  }

  #bcrypt(password: string, hash: string): Promise<boolean> {
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, password, hash });
    });
  }

  /** Whether the bcrypt thread is running (it stops when idle). */
  get running(): boolean {
    return this.#worker !== null;
  }

  /** Stops the bcrypt thread; bcrypt checks under way fail. */
  async close(): Promise<void> {
    this.#clearIdle();
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }

  #clearIdle(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
  }

  #start(): Worker {
    this.#clearIdle();
    if (this.#worker) return this.#worker;
    const bcrypt = createRequire(import.meta.url).resolve('bcryptjs');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcrypt } });
    // An idle checker must not keep the process alive.
    worker.unref();
    worker.on('message', ({ id, ok }: { id: number; ok: boolean }) => {
      this.#pending.get(id)?.resolve(ok);
      this.#pending.delete(id);
      if (this.#pending.size === 0 && this.#worker === worker) {
        this.#idle = setTimeout(() => void this.close(), this.idleMs);
        this.#idle.unref();
      }
    });
    const fail = (error: Error) => {
      // A thread stopped for idleness may exit after its successor took new checks: those are not its.
      if (this.#worker !== worker && this.#worker !== null) return;
      this.#worker = null;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new ServiceUnavailable('the password check stopped; retry')));
    this.#worker = worker;
    return worker;
  }
}
