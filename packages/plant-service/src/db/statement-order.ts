/**
 * The order in which PGlite runs statements. PGlite executes one statement at a time, in the
 * service's own thread, and queues the rest first come, first served. Under load that is unfair
 * to requests that send several statements one after another (a search takes up to three turns):
 * each of them joins the back of the queue again, so with 50 requests waiting such a request waits
 * behind all of them once per statement, seconds in all, while a one-statement request waits once.
 *
 * Here statements wait in a queue ordered by the arrival of the request that sends them: once a
 * request has started, its next statements go before those of every request that arrived after
 * it, so a request waits for the requests ahead of it about once, whatever number of statements it
 * sends. Work outside a request (statistics, session purge) arrives when it sends a statement.
 *
 * The queue also lets the event loop take its turns between statements (see LOOP_TURN_MS): a
 * statement's answer is taken up in a microtask, so a queue of statements otherwise ran back to
 * back without the loop polling, and under load clients that had just connected waited for
 * seconds, some past their timeout.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';
import PQueue from 'p-queue';

const arrival = new AsyncLocalStorage<number>();
let arrivals = 0;

/**
 * Runs `work` as one arrival: the statements it sends, however many and however late, are ordered
 * by this call. Within an arrival already under way, `work` keeps that arrival.
 */
export function asArrival<T>(work: () => T): T {
  return arrival.getStore() === undefined ? arrival.run(++arrivals, work) : work();
}

/** The arrival the current work belongs to, if any. */
export function currentArrival(): number | undefined {
  return arrival.getStore();
}

const ordered = new WeakSet<PGlite>();

/**
 * How long the queue runs statements back to back before the event loop takes its turn.
 *
 * Node polls for I/O once per loop iteration, and each poll accepts one new connection. A statement
 * run inside an I/O callback (the one of the request that sent it) holds that poll up: under load
 * the queue then never stops inside a poll, and a client that had just connected was accepted only
 * after every request ahead of it, one connection per round, seconds in all. So a run of statements
 * always starts in a turn of its own, after the poll, and gives the loop a turn at least every
 * LOOP_TURN_MS. A turn before every statement also kept clients accepted, but cost PGlite a third
 * to half of its list throughput (one short statement per loop iteration).
 */
const LOOP_TURN_MS = 10;

/**
 * Puts PGlite's entry points behind one queue ordered by arrival. Statements inside a transaction
 * go through the transaction's own handle, which the queue does not see: the whole transaction
 * holds its turn, as PGlite itself requires.
 */
export function orderStatements(client: PGlite): void {
  if (ordered.has(client)) return;
  ordered.add(client);
  const queue = new PQueue({ concurrency: 1 });
  // Statements run in runs that start in a turn of their own (setImmediate), never inside the
  // callback that sent the first of them, and last at most LOOP_TURN_MS.
  let running = false;
  let runStart = 0;
  queue.on('idle', () => {
    running = false;
  });
  // p-queue runs greater priorities first and equal ones in the order added.
  const inTurn =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      queue.add(
        async () => {
          if (!running || performance.now() - runStart >= LOOP_TURN_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            running = true;
            runStart = performance.now();
          }
          return run(...args);
        },
        { priority: -(arrival.getStore() ?? ++arrivals) },
      );
  client.query = inTurn(client.query.bind(client)) as PGlite['query'];
  client.exec = inTurn(client.exec.bind(client));
  client.transaction = inTurn(client.transaction.bind(client)) as PGlite['transaction'];
  client.describeQuery = inTurn(client.describeQuery.bind(client));
}
