/**
 * On the embedded database, the statements of a request that has started go before those of
 * requests that arrived after it, so a request sending several statements does not wait behind
 * the whole queue once per statement.
 */
import http from 'node:http';
import type net from 'node:net';
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

  it('accepts new connections while requests keep the queue busy', async () => {
    // Each request sends a statement from its own I/O callback, as the service's requests do.
    // Run there, a statement holds up the loop's poll, which accepts one connection at a time:
    // with the queue never empty, each new client was accepted only after a round of every
    // request ahead of it, seconds in all under load.
    let statements = 0;
    const acceptedAfter: number[] = [];
    const server = http.createServer((_req, res) => {
      // A failed statement ends the exchange, so the test fails instead of waiting.
      void database.db.execute(sql`select pg_sleep(0.002)`).then(
        () => {
          statements++;
          res.end('ok');
        },
        () => res.destroy(),
      );
    });
    server.on('connection', () => acceptedAfter.push(statements));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const busy = new http.Agent({ keepAlive: true, maxSockets: 40 });
    const get = (agent: http.Agent | false) =>
      new Promise<void>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => res.resume().on('end', resolve))
          .on('error', reject);
      });
    let stop = false;
    try {
      // Forty clients keep the queue busy, then ten new ones connect.
      const load = Array.from({ length: 40 }, async () => {
        while (!stop) await get(busy);
      });
      while (acceptedAfter.length < 40 || statements < 100) await new Promise((r) => setTimeout(r, 5));
      const before = acceptedAfter.length;
      const from = statements;
      await Promise.all(Array.from({ length: 10 }, () => get(false)));
      stop = true;
      await Promise.all(load);
      const newcomers = acceptedAfter.slice(before).map((n) => n - from);
      expect(newcomers).toHaveLength(10);
      // Accepted one per round of the busy clients' statements, the ten took close to 200
      // statements here; accepted between short runs of statements, a few each (about 40).
      expect(Math.max(...newcomers)).toBeLessThan(100);
    } finally {
      stop = true;
      busy.destroy();
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
