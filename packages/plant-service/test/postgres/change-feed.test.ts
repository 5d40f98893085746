/**
 * Two service instances on one PostgreSQL database: a write on one invalidates the other's
 * response cache through LISTEN/NOTIFY.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type ChangeFeed, postgresChangeFeed } from '../../src/db/change-feed.js';
import { openPostgres } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const silent = { warn: () => {} };
let a: TestApp;
let b: { app: Awaited<ReturnType<typeof buildApp>>; close(): Promise<void> };
let feeds: ChangeFeed[] = [];

beforeAll(async () => {
  a = await createTestApp();
  // Instance A gets its own feed too: rebuild it on the same database with a PostgreSQL feed.
  await a.app.close();
  const url = a.database.url!;
  const feedA = await postgresChangeFeed(url, silent);
  const feedB = await postgresChangeFeed(url, silent);
  feeds = [feedA, feedB];
  a.app = await buildApp({ config: a.config, database: a.database, changeFeed: feedA });
  const dbB = openPostgres({ url, poolSize: 2 });
  const appB = await buildApp({
    config: loadConfig({ DEMO_DATA: 'false' }),
    database: dbB,
    changeFeed: feedB,
  });
  b = {
    app: appB,
    close: async () => {
      await appB.close();
      await dbB.close();
    },
  };
});
afterAll(async () => {
  await b.close();
  for (const feed of feeds) await feed.close();
  await a.close();
});

const until = async (check: () => Promise<boolean>, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('change feed across instances', () => {
  it('a write on instance A is visible on instance B, whose cache held the old response', async () => {
    const cookie = await a.cookie();
    const heard = feeds[1]!.version;
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { cookie, origin: a.config.auth.publicUrl },
      payload: { name_scientific: 'Betulaceae' },
    });
    expect(created.statusCode, created.body).toBe(200);
    await until(async () => feeds[1]!.version > heard);
    await b.app.inject({ url: '/api/v1/families/betulaceae' });
    expect((await b.app.inject({ url: '/api/v1/families/betulaceae' })).headers['x-cache']).toBe('HIT');

    const updated = await a.app.inject({
      method: 'PUT',
      url: '/api/v1/families/betulaceae',
      headers: { cookie, origin: a.config.auth.publicUrl },
      payload: { name_de: 'Birkengewächse' },
    });
    expect(updated.statusCode).toBe(200);
    await until(
      async () =>
        (await b.app.inject({ url: '/api/v1/families/betulaceae' })).json().name_de === 'Birkengewächse',
    );
  });

  it('reports itself live once listening', () => {
    expect(feeds.every((f) => f.live)).toBe(true);
  });
});

describe('a LISTEN that fails after connecting', () => {
  it('closes that connection before it retries', async () => {
    const query = pg.Client.prototype.query;
    const listenFailed = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      if (typeof args[0] === 'string' && args[0].startsWith('LISTEN')) {
        return Promise.reject(new Error('simulated: LISTEN refused')) as never;
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    const ended = vi.spyOn(pg.Client.prototype, 'end');
    try {
      const feed = await postgresChangeFeed(a.database.url as string, silent);
      expect(feed.live).toBe(false);
      // The connection that could not LISTEN was ended, not left open.
      expect(ended).toHaveBeenCalledTimes(1);
      await feed.close();
    } finally {
      listenFailed.mockRestore();
      ended.mockRestore();
    }
  });
});
