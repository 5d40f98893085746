/**
 * Two service instances on one PostgreSQL database, their response caches warm: a change made
 * through either one's API, or in SQL by another client (as with psql), is seen by the other's
 * reads within a second: by slug, in a list's `total` and `facets`, and in search.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_NAME } from '../../src/db/change-feed.js';
import { openPostgres } from '../../src/db/client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let a: TestApp;
let b: TestApp;
let psql: pg.Client;
let family: { id: string; slug: string };

const VISIBLE_WITHIN_MS = 1_000;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({}, { database: openPostgres({ url: a.database.url!, poolSize: 4 }) });
  psql = new pg.Client({ connectionString: a.database.url });
  await psql.connect();
  family = await fixtures(a, await a.cookie()).family('Coherentaceae');
});
afterAll(async () => {
  await psql.end();
  await b.close();
  await a.close();
});

/** What a reader of `t` sees of the species `slug`: the record, the list and a search. */
async function view(t: TestApp, slug: string, searchText: string) {
  const record = await t.app.inject({ url: `/api/v1/species/${slug}` });
  const list = await t.app.inject({ url: `/api/v1/species?family=${family.slug}&facets=plant_layer` });
  const found = await t.app.inject({ url: `/api/v1/search?q=${encodeURIComponent(searchText)}` });
  const body = list.json() as {
    total: number;
    facets: { plant_layer: { value: string | null; count: number }[] };
  };
  return {
    status: record.statusCode,
    name_en: record.statusCode === 200 ? (record.json() as { name_en: string | null }).name_en : undefined,
    total: body.total,
    layers: Object.fromEntries(body.facets.plant_layer.map((f) => [String(f.value), f.count])),
    found: (found.json() as { slug: string }[]).map((r) => r.slug),
  };
}

/**
 * Warms `t`'s cache with what `view` reads, until a second read of each is a hit (an earlier
 * change's announcement may still empty it once).
 */
async function warm(t: TestApp, slug: string, searchText: string): Promise<void> {
  const urls = [
    `/api/v1/species/${slug}`,
    `/api/v1/species?family=${family.slug}&facets=plant_layer`,
    `/api/v1/search?q=${encodeURIComponent(searchText)}`,
  ];
  for (let attempt = 0; ; attempt++) {
    await view(t, slug, searchText);
    // A record not there yet is a 404, which is never kept.
    const states = await Promise.all(
      urls.map(async (url) => {
        const res = await t.app.inject({ url });
        return res.statusCode === 404 ? 'absent' : res.headers['x-cache'];
      }),
    );
    if (states.every((state) => state === 'HIT' || state === 'absent')) return;
    expect(attempt, `cache not warm: ${states.join(', ')}`).toBeLessThan(20);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until `check` holds for what `t` serves, failing after VISIBLE_WITHIN_MS. */
async function seenWithin(
  t: TestApp,
  slug: string,
  searchText: string,
  check: (v: Awaited<ReturnType<typeof view>>) => boolean,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const v = await view(t, slug, searchText);
    if (check(v)) return Date.now() - started;
    if (Date.now() - started > VISIBLE_WITHIN_MS)
      throw new Error(`not seen within 1 s: ${JSON.stringify(v)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('two instances, warm caches', () => {
  it('see each other’s API writes: by slug, total, facets and search', async () => {
    const cookieA = await a.cookie();
    const cookieB = await b.cookie();
    await warm(b, 'quercus-coherens', 'quercus coherens');
    const created = await fixtures(a, cookieA).species(family.id, 'Quercus coherens', {
      name_en: 'Coherent oak',
      plant_layer: 'canopy',
    });
    await seenWithin(
      b,
      created.slug,
      'quercus coherens',
      (v) => v.status === 200 && v.total === 1 && v.layers.canopy === 1 && v.found.includes(created.slug),
    );

    await warm(a, created.slug, 'steady oak');
    const put = await b.app.inject({
      method: 'PUT',
      url: `/api/v1/species/${created.slug}`,
      headers: { cookie: cookieB },
      payload: { name_en: 'Steady oak', plant_layer: 'sub_canopy' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await seenWithin(
      a,
      created.slug,
      'steady oak',
      (v) => v.name_en === 'Steady oak' && v.layers.sub_canopy === 1 && v.found.includes(created.slug),
    );
  });

  it('see writes made in SQL by another client: update, insert, delete', async () => {
    const slug = 'fagus-sqlensis';
    await psql.query(
      `insert into species (slug, family_id, name_scientific, name_en, plant_layer) values ($1, $2, 'Fagus sqlensis', 'Old beech', 'canopy')`,
      [slug, family.id],
    );
    for (const t of [a, b]) {
      await seenWithin(t, slug, 'old beech', (v) => v.status === 200 && v.found.includes(slug));
      await warm(t, slug, 'new beech');
    }
    const before = await view(a, slug, 'new beech');

    await psql.query(`update species set name_en = 'New beech' where slug = $1`, [slug]);
    for (const t of [a, b]) {
      await seenWithin(t, slug, 'new beech', (v) => v.name_en === 'New beech' && v.found.includes(slug));
      const old = await t.app.inject({ url: '/api/v1/search?q=old%20beech' });
      expect((old.json() as { slug: string }[]).map((r) => r.slug)).not.toContain(slug);
    }

    await psql.query(
      `insert into species (slug, family_id, name_scientific, plant_layer) values ('fagus-secunda', $1, 'Fagus secunda', 'shrub')`,
      [family.id],
    );
    for (const t of [a, b])
      await seenWithin(t, slug, 'new beech', (v) => v.total === before.total + 1 && v.layers.shrub === 1);

    await psql.query(`delete from species where slug = $1`, [slug]);
    for (const t of [a, b])
      await seenWithin(
        t,
        slug,
        'new beech',
        (v) =>
          v.status === 404 && v.total === before.total && !v.found.includes(slug) && v.layers.shrub === 1,
      );
  });

  it('bypass the cache while their LISTEN connection is down, and use it again once it is back', async () => {
    const url = `/api/v1/families/${family.slug}`;
    await warm(a, 'none', 'none');
    await a.app.inject({ url });
    expect((await a.app.inject({ url })).headers['x-cache']).toBe('HIT');
    await psql.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = $1`,
      [LISTENER_NAME],
    );
    // Lost, both instances answer from the database: a change they cannot hear is still seen.
    let bypassed = false;
    for (let i = 0; i < 50 && !bypassed; i++) {
      bypassed = (await a.app.inject({ url })).headers['x-cache'] === undefined;
      if (!bypassed) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(bypassed).toBe(true);
    // Back (reconnected with backoff), the cache serves again.
    let hit = false;
    for (let i = 0; i < 100 && !hit; i++) {
      hit = (await a.app.inject({ url })).headers['x-cache'] === 'HIT';
      if (!hit) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(hit).toBe(true);
  });
});
