/**
 * The change log: entries for every writer (a session, an API token, the import, SQL written
 * without the service) with its actor, the reason header, what public readers and admins see,
 * a record's history newest first (a deleted record's by uuid), tombstones in the feed, the
 * feed's paging, and revert: fields back, the 409 naming later changes' fields, the overwrite,
 * a deleted record restored with its id and slug, and the 409 when its slug was taken.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../src/dataset/import.js';
import { KIND } from '../../src/dataset/kinds.js';
import { changeRepository } from '../../src/resources/changes/repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let editor: string;
let admin: string;
let make: ReturnType<typeof fixtures>;

beforeAll(async () => {
  t = await createTestApp({ RESPONSE_CACHE_MB: '0' });
  editor = await t.cookie({ editor: true });
  admin = await t.cookie({ admin: true });
  make = fixtures(t, editor);
});
afterAll(() => t.close());

interface Change {
  position: number;
  kind: string;
  id: string;
  slug: string | null;
  op: string;
  fields: Record<string, { old: unknown; new: unknown }>;
  actor: Record<string, unknown>;
  reason: string | null;
  reverts: number | null;
}

async function feed(after = 0, headers: Record<string, string> = {}, limit = 1000) {
  const res = await t.app.inject({ url: `/api/v1/changes?after=${after}&limit=${limit}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Change[]; next: number; last: number };
}

async function history(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url: `/api/v1/${path}/history`, headers });
  expect(res.statusCode).toBe(200);
  return res.json() as { data: Change[]; total: number };
}

/** The entries about one record, oldest first. */
async function entriesOf(id: string, headers: Record<string, string> = {}) {
  return (await feed(0, headers)).data.filter((c) => c.id === id);
}

/** Runs SQL as an operator would: outside the service, on a connection of its own (PostgreSQL). */
async function operatorSql(text: string): Promise<void> {
  if (backend === 'postgres') {
    const client = new pg.Client({ connectionString: t.database.url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  } else {
    await t.database.db.execute(sql.raw(text));
  }
}

describe('who wrote', () => {
  it('records a session write with its user: the name for everyone, the e-mail for admins only', async () => {
    const family = await make.family('Actoraceae');
    const [created] = await entriesOf(family.id);
    expect(created).toMatchObject({ kind: 'family', op: 'create', slug: 'actoraceae', reason: null });
    expect(created?.fields.name_scientific).toEqual({ old: null, new: 'Actoraceae' });
    expect(created?.actor).toEqual({ kind: 'user', name: 'Test User' });
    const [asAdmin] = await entriesOf(family.id, { cookie: admin });
    expect(asAdmin?.actor).toMatchObject({ kind: 'user', name: 'Test User', token_id: null });
    expect(asAdmin?.actor.email).toMatch(/@example\.test$/);
    expect(asAdmin?.actor.role).toEqual(expect.any(String));
  });

  it('records a token write with the token, whose name only admins see', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: { cookie: editor },
      payload: { name: 'nightly sync' },
    });
    expect(created.statusCode).toBe(200);
    const { token, id: tokenId } = created.json() as { token: string; id: string };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/families',
      headers: { authorization: `Bearer ${token}`, 'x-change-reason': 'from the nightly sync' },
      payload: { name_scientific: 'Tokenaceae' },
    });
    expect(res.statusCode).toBe(200);
    const [entry] = await entriesOf(res.json().id);
    expect(entry?.actor).toEqual({ kind: 'token', name: 'Test User' });
    expect(entry?.reason).toBe('from the nightly sync');
    const [asAdmin] = await entriesOf(res.json().id, { cookie: admin });
    expect(asAdmin?.actor).toMatchObject({ kind: 'token', token_id: tokenId, token_name: 'nightly sync' });
  });

  it('records what the import writes as the import', async () => {
    await importRecords(t.database, [
      {
        kind: KIND.family,
        record: { slug: 'importaceae', name_scientific: 'Importaceae' },
        file: 'f',
        line: 1,
      },
    ]);
    const [entry] = (await feed()).data.filter((c) => c.slug === 'importaceae');
    expect(entry).toMatchObject({ op: 'create', actor: { kind: 'import', name: null } });
  });

  it('records SQL written without the service as the database role', async () => {
    const family = await make.family('Sqlaceae');
    await operatorSql(`update families set name_en = 'SQL family' where id = '${family.id}'`);
    const entries = await entriesOf(family.id, { cookie: admin });
    expect(entries.at(-1)).toMatchObject({
      op: 'update',
      fields: { name_en: { old: null, new: 'SQL family' } },
      actor: { kind: 'database', name: null, user_id: null },
    });
    expect(entries.at(-1)?.actor.role).toEqual(expect.any(String));
  });

  it('takes a percent-encoded reason and refuses one too long or with control characters', async () => {
    const family = await make.family('Reasonaceae');
    const put = (reason: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/families/${family.slug}`,
        headers: { cookie: editor, 'x-change-reason': reason },
        payload: { name_de: `Grund ${reason.length}` },
      });
    expect((await put(encodeURIComponent('Tippfehler in „Gründe“ korrigiert'))).statusCode).toBe(200);
    expect((await entriesOf(family.id)).at(-1)?.reason).toBe('Tippfehler in „Gründe“ korrigiert');
    const long = await put('x'.repeat(501));
    expect(long.statusCode).toBe(400);
    expect(long.json().field).toBe('x-change-reason');
    expect((await put('%0Aline')).statusCode).toBe(400);
    expect((await put('%E0%A4%A')).statusCode).toBe(400);
  });

  it('does not record an update that changed nothing', async () => {
    const family = await make.family('Sameaceae', { name_en: 'Same' });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${family.slug}`,
      headers: { cookie: editor },
      payload: { name_en: 'Same' },
    });
    expect(res.statusCode).toBe(200);
    expect((await entriesOf(family.id)).map((c) => c.op)).toEqual(['create']);
  });
});

describe('history and feed', () => {
  it('lists a record newest first, finds a deleted one by uuid, and the feed keeps its tombstone', async () => {
    const family = await make.family('Historaceae');
    for (const name_en of ['One', 'Two']) {
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/families/${family.slug}`,
        headers: { cookie: editor },
        payload: { name_en },
      });
    }
    const page = await history(`families/${family.slug}`);
    expect(page.total).toBe(3);
    expect(page.data.map((c) => c.op)).toEqual(['update', 'update', 'create']);
    expect(page.data[0]?.fields).toEqual({ name_en: { old: 'One', new: 'Two' } });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/families/${family.slug}`,
      headers: { cookie: admin },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/v1/families/${family.slug}/history` })).statusCode).toBe(404);
    const gone = await history(`families/${family.id}`);
    expect(gone.data[0]).toMatchObject({ op: 'delete', id: family.id, slug: 'historaceae', kind: 'family' });
    expect(gone.data[0]?.fields.name_en).toEqual({ old: 'Two', new: null });
    const tombstone = (await feed()).data.find((c) => c.id === family.id && c.op === 'delete');
    expect(tombstone).toMatchObject({ kind: 'family', slug: 'historaceae' });
  });

  it('answers the history of a species, a cultivar and a supplier, by slug and by uuid', async () => {
    const family = await make.family('Kindaceae');
    const plant = await make.species(family.id, 'Kinda prima');
    const cultivar = await make.cultivar(plant.id, 'Erste');
    const supplier = await make.supplier('Kinda Seeds');
    for (const [path, record] of [
      ['species', plant],
      ['cultivars', cultivar],
      ['suppliers', supplier],
    ] as const) {
      for (const ref of [record.slug, record.id]) {
        const page = await history(`${path}/${ref}`);
        expect(page.data.map((c) => [c.op, c.id])).toEqual([['create', record.id]]);
      }
    }
    const unknown = await t.app.inject({ url: '/api/v1/species/no-such-species/history' });
    expect(unknown.statusCode).toBe(404);
  });

  it('pages the feed in position order with `next`, and an empty page keeps `after`', async () => {
    const all = (await feed()).data;
    expect(all.length).toBeGreaterThan(3);
    const positions = all.map((c) => c.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const first = await feed(0, {}, 2);
    expect(first.data.map((c) => c.position)).toEqual(positions.slice(0, 2));
    expect(first.next).toBe(positions[1]);
    const second = await feed(first.next, {}, 2);
    expect(second.data.map((c) => c.position)).toEqual(positions.slice(2, 4));
    const end = positions.at(-1) as number;
    expect(await feed(end)).toEqual({ data: [], next: end, last: end });
    expect(first.last).toBe(end);
    const tooMany = await t.app.inject({ url: '/api/v1/changes?limit=1001' });
    expect(tooMany.statusCode).toBe(400);
  });

  it('records links, companions and cascaded deletes under their own kinds', async () => {
    const family = await make.family('Cascadaceae');
    const a = await make.species(family.id, 'Cascada alpha');
    const b = await make.species(family.id, 'Cascada beta');
    const companion = await make.companion(a.id, b.id);
    const supplier = await make.supplier('Cascade Seeds');
    const cultivar = await make.cultivar(a.id, 'Early');
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cultivars/${cultivar.id}/suppliers`,
      headers: { cookie: editor },
      payload: { supplier_id: supplier.id, price_eur: 2.5 },
    });
    expect(link.statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/suppliers/${supplier.slug}`,
      headers: { cookie: admin },
    });
    expect(removed.statusCode).toBe(200);
    const entries = (await feed()).data;
    expect(entries.find((c) => c.id === companion.id)).toMatchObject({ kind: 'companion', op: 'create' });
    const linkEntries = entries.filter((c) => c.id === link.json().id);
    expect(linkEntries.map((c) => [c.kind, c.op, c.actor.kind])).toEqual([
      ['cultivar_supplier', 'create', 'user'],
      ['cultivar_supplier', 'delete', 'user'],
    ]);
  });
});

describe('revert', () => {
  async function put(slug: string, payload: object) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/families/${slug}`,
      headers: { cookie: editor },
      payload,
    });
    expect(res.statusCode).toBe(200);
  }
  const revert = (slug: string, position: number, payload: object = {}, cookie = editor) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/families/${slug}/history/${position}/revert`,
      headers: { cookie, 'x-change-reason': 'vandalism' },
      payload,
    });

  it('puts the fields back in a new change naming the reverted one', async () => {
    const family = await make.family('Revertaceae', { name_en: 'Good', name_de: 'Gut' });
    await put(family.slug, { name_en: 'Bad', name_de: 'Schlecht' });
    const [bad] = (await history(`families/${family.slug}`)).data;
    const res = await revert(family.slug, bad!.position);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      op: 'update',
      reverts: bad!.position,
      reason: 'vandalism',
      actor: { kind: 'user' },
      fields: { name_en: { old: 'Bad', new: 'Good' }, name_de: { old: 'Schlecht', new: 'Gut' } },
    });
    const now = (await t.app.inject({ url: `/api/v1/families/${family.slug}` })).json();
    expect(now).toMatchObject({ name_en: 'Good', name_de: 'Gut' });
  });

  it('answers 409 naming the fields a later change touched, and reverts with overwrite', async () => {
    const family = await make.family('Conflictaceae', { name_en: 'First', description: 'Kept' });
    await put(family.slug, { name_en: 'Second', description: 'Changed' });
    const [second] = (await history(`families/${family.slug}`)).data;
    await put(family.slug, { name_en: 'Third' });
    const refused = await revert(family.slug, second!.position);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fields).toEqual(['name_en']);
    expect(refused.json().error).toContain('name_en');
    const forced = await revert(family.slug, second!.position, { overwrite: true });
    expect(forced.statusCode).toBe(200);
    const now = (await t.app.inject({ url: `/api/v1/families/${family.slug}` })).json();
    expect(now).toMatchObject({ name_en: 'First', description: 'Kept' });
  });

  it('restores a deleted record with its id and slug, unless another record took the slug', async () => {
    const family = await make.family('Phoenixaceae', { name_de: 'Phönix' });
    const del = () =>
      t.app.inject({ method: 'DELETE', url: `/api/v1/families/${family.id}`, headers: { cookie: admin } });
    expect((await del()).statusCode).toBe(200);
    const [tomb] = (await history(`families/${family.id}`)).data;
    const restored = await revert(family.id, tomb!.position);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ op: 'create', reverts: tomb!.position, slug: 'phoenixaceae' });
    const back = (await t.app.inject({ url: `/api/v1/families/${family.id}` })).json();
    expect(back).toMatchObject({
      id: family.id,
      slug: 'phoenixaceae',
      name_de: 'Phönix',
      created_at: family.created_at,
    });

    expect((await del()).statusCode).toBe(200);
    const [second] = (await history(`families/${family.id}`)).data;
    const usurper = await make.family('Phoenixaceae');
    expect(usurper.slug).toBe('phoenixaceae');
    const refused = await revert(family.id, second!.position);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toContain('phoenixaceae');
  });

  it('lets only editors revert, and only admins revert a create', async () => {
    const family = await make.family('Guardaceae');
    const [created] = (await history(`families/${family.slug}`)).data;
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/v1/families/${family.slug}/history/${created!.position}/revert`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await revert(family.slug, created!.position)).statusCode).toBe(403);
    const removed = await revert(family.slug, created!.position, {}, admin);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ op: 'delete', reverts: created!.position });
    expect((await revert(family.id, 999_999)).statusCode).toBe(404);
  });
});

describe('pruned', () => {
  it('answers 410 to a reader asking from before the pruned part, and the rest after it', async () => {
    const { next } = await feed();
    const pruned = await t.database.db.transaction((tx) =>
      changeRepository.prune(tx, new Date(Date.now() + 60_000)),
    );
    expect(pruned.pruned_through).toBe(next);
    const gone = await t.app.inject({ url: '/api/v1/changes?after=0' });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ pruned_through: next });
    const family = await make.family('Afterpruneaceae');
    const rest = await feed(next);
    expect(rest.data.map((c) => [c.position, c.id])).toEqual([[next + 1, family.id]]);
  });
});
