/**
 * On the embedded database, the statements of a request that has started go before those of
 * requests that arrived after it, so a request sending several statements does not wait behind
 * the whole queue once per statement.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, newPglite, openPglite } from '../../src/db/client.js';
import { asArrival } from '../../src/db/statement-order.js';

let database: Database;

beforeAll(async () => {
  database = await openPglite({ instance: await newPglite() });
}, 120_000);
afterAll(() => database.close());

/** Runs `steps` statements one after another, noting each as `name:step` once it has answered. */
async function request(name: string, steps: number, done: string[]): Promise<void> {
  for (let step = 1; step <= steps; step++) {
    await database.db.execute(sql`select ${step}::int as step`);
    done.push(`${name}:${step}`);
  }
}

describe('statement order on PGlite', () => {
  it("puts a started request's next statements before those of later arrivals", async () => {
    const done: string[] = [];
    // A statement in progress, so that every later one has to queue.
    const busy = asArrival(() => database.db.execute(sql`select pg_sleep(0.05)`));
    const first = asArrival(() => request('first', 3, done));
    const later = Array.from({ length: 6 }, (_, i) => asArrival(() => request(`later${i}`, 1, done)));
    await Promise.all([busy, first, ...later]);

    // Each of first's statements is sent only once the previous one answered; by then the next
    // queued statement (of a later arrival) may already have started, but no more than that one.
    expect(done.indexOf('first:2')).toBeLessThanOrEqual(done.indexOf('first:1') + 2);
    expect(done.indexOf('first:3')).toBeLessThanOrEqual(done.indexOf('first:2') + 2);
    // Without the order, PGlite's own first-come queue runs all six later ones before first:2.
    expect(done.indexOf('first:3')).toBeLessThan(done.indexOf('later5:1'));
    // The later arrivals keep their own order among themselves.
    const laterOrder = done.filter((d) => d.startsWith('later'));
    expect(laterOrder).toEqual(Array.from({ length: 6 }, (_, i) => `later${i}:1`));
  });

  it('takes new connections between statements, not only once the queue is empty', async () => {
    // PGlite runs in this thread, and a statement's answer is taken up in a microtask: without a
    // turn of the event loop between statements, a queue of them kept the service from
    // accepting new connections for seconds under load (clients timed out before being read).
    const accepted: number[] = [];
    const finished: number[] = [];
    const server = net.createServer((socket) => {
      accepted.push(finished.length);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const statements = Array.from({ length: 30 }, () =>
        database.db.execute(sql`select pg_sleep(0.01)`).then(() => finished.push(1)),
      );
      const clients = Array.from({ length: 5 }, () => net.connect(port, '127.0.0.1').on('error', () => {}));
      await Promise.all(statements);
      clients.forEach((c) => c.destroy());
      // Accepted while the statements were still running: each after only a few of them.
      expect(accepted).toHaveLength(5);
      expect(Math.max(...accepted)).toBeLessThan(15);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('orders work outside any request by when it sends each statement', async () => {
    const done: string[] = [];
    const busy = database.db.execute(sql`select pg_sleep(0.05)`);
    const a = request('a', 1, done);
    const b = request('b', 1, done);
    await Promise.all([busy, a, b]);
    expect(done).toEqual(['a:1', 'b:1']);
  });

  it('keeps a transaction whole: statements of other requests wait for its end', async () => {
    const done: string[] = [];
    const tx = asArrival(() =>
      database.db.transaction(async (t) => {
        await t.execute(sql`select 1`);
        done.push('tx:1');
        await new Promise((r) => setTimeout(r, 20));
        await t.execute(sql`select 2`);
        done.push('tx:2');
      }),
    );
    const other = asArrival(() => request('other', 1, done));
    await Promise.all([tx, other]);
    expect(done).toEqual(['tx:1', 'tx:2', 'other:1']);
  });
  it('goes on with the next statements when one fails', async () => {
    const done: string[] = [];
    const busy = database.db.execute(sql`select pg_sleep(0.02)`);
    const failing = asArrival(() => database.db.execute(sql`select 1 / 0`));
    const after = asArrival(() => request('after', 2, done));
    await busy;
    await expect(failing).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/division by zero/) },
    });
    await after;
    expect(done).toEqual(['after:1', 'after:2']);
  });
});
