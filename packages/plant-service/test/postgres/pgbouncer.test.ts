/**
 * The service behind PgBouncer in session mode (1.18, Debian 12's): reads and writes through the
 * pooler on two pooled connections, which run the lookups' and search's named prepared statements
 * again and again, and its response cache emptied by a change made past the pooler (LISTEN goes
 * through it).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDatabase } from '../helpers/database.js';
import { fixtures } from '../helpers/fixtures.js';
import { type Bouncer, startPgbouncer } from '../helpers/pgbouncer.js';

let bouncer: Bouncer;
let t: TestApp;
let direct: pg.Client;

beforeAll(async () => {
  const database = await testDatabase();
  bouncer = await startPgbouncer(database.url!);
  const pooled = openPostgres({ url: bouncer.through(database.url!), poolSize: 2 });
  t = await createTestApp(
    {},
    {
      database: {
        ...pooled,
        // The pooler holds server connections to the database until it stops.
        close: async () => {
          await pooled.close();
          await bouncer.stop();
          await database.close();
        },
      },
    },
  );
  direct = new pg.Client({ connectionString: database.url });
  await direct.connect();
});
afterAll(async () => {
  await direct.end();
  await t.close();
});

describe('behind PgBouncer (session mode)', () => {
  it('reads and writes through the pooler, again and again on its pooled connections', async () => {
    const make = fixtures(t, await t.cookie());
    const family = await make.family('Bouncaceae');
    for (let i = 0; i < 5; i++) {
      const species = await make.species(family.id, `Pooled species${i}`, { name_en: `Pooled plant ${i}` });
      const [bySlug, list, found] = await Promise.all([
        t.app.inject({ url: `/api/v1/species/${species.slug}` }),
        t.app.inject({ url: `/api/v1/species?family=${family.slug}` }),
        t.app.inject({ url: `/api/v1/search?q=pooled%20plant` }),
      ]);
      expect(bySlug.json().name_en).toBe(`Pooled plant ${i}`);
      expect(list.json().total).toBe(i + 1);
      expect(found.json()).toHaveLength(i + 1);
    }
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${family.slug}`,
      headers: { cookie: await t.cookie() },
      payload: { name_en: 'Bouncer family' },
    });
    expect(put.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/families/${family.slug}` })).json().name_en).toBe(
      'Bouncer family',
    );
  });

  it('sees a change made past the pooler: its LISTEN goes through it', async () => {
    const url = '/api/v1/families/bouncaceae';
    await t.app.inject({ url });
    expect((await t.app.inject({ url })).headers['x-cache']).toBe('HIT');
    await direct.query(`update families set name_de = 'Direkt geändert' where slug = 'bouncaceae'`);
    for (let i = 0; ; i++) {
      const res = await t.app.inject({ url });
      if (res.json().name_de === 'Direkt geändert') break;
      expect(i, 'change not seen within 1 s').toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
