/**
 * Concurrent writers. On PostgreSQL these run truly in parallel (a pool of connections), on
 * PGlite one after another; the outcomes the API promises are the same on both: duplicates are a
 * 409, a write whose parent or record was deleted meanwhile is a 400 or a 404, never a 5xx or an
 * empty 200 (every response is also checked against the OpenAPI document by the test app).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueRepository } from '../../src/db/catalogue-repository.js';
import { families } from '../../src/db/tables.js';
import { transaction } from '../../src/db/transaction.js';
import { NotFound } from '../../src/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fixtures } from '../helpers/fixtures.js';

let t: TestApp;
let writer: string;
let admin: string;
let make: ReturnType<typeof fixtures>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MINUTE: '0' });
  writer = await t.cookie();
  admin = await t.cookie({ admin: true });
  make = fixtures(t, writer);
});
afterAll(() => t.close());

const N = 20;

function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = writer) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

describe('concurrent writes', () => {
  it(`${N} identical companion creations: one 200, the rest 409 naming the stored relation`, async () => {
    const f = await make.family('Racing companions');
    const a = await make.species(f.id, 'Racea alpha');
    const b = await make.species(f.id, 'Racea beta');
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        send(
          'POST',
          '/api/v1/companions',
          // Half in each order: the pair is the same either way.
          i % 2
            ? { species_a_id: a.id, species_b_id: b.id, relationship: 'beneficial' }
            : { species_a_id: b.id, species_b_id: a.id, relationship: 'beneficial' },
        ),
      ),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 200: 1, 409: N - 1 });
    const stored = responses.find((r) => r.statusCode === 200)?.json().id;
    for (const r of responses.filter((r) => r.statusCode === 409)) expect(r.json().existing_id).toBe(stored);
  });

  it(`${N} identical supplier links: one 200, the rest 409`, async () => {
    const f = await make.family('Racing links');
    const s = await make.species(f.id, 'Racea gamma');
    const c = await make.cultivar(s.id, 'Sprinter');
    const supplier = await make.supplier('Race Seeds');
    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        send('POST', `/api/v1/cultivars/${c.slug}/suppliers`, { supplier_id: supplier.id }),
      ),
    );
    expect(countStatuses(responses.map((r) => r.statusCode))).toEqual({ 200: 1, 409: N - 1 });
  });

  it(`${N} identical family creations all succeed, each with its own slug`, async () => {
    const responses = await Promise.all(
      Array.from({ length: N }, () => send('POST', '/api/v1/families', { name_scientific: 'Twinaceae' })),
    );
    const statuses = responses.map((r) => r.statusCode);
    // A writer that lost the slug race too often gets a 409; never a 5xx.
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const slugs = responses.filter((r) => r.statusCode === 200).map((r) => r.json().slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('species creations racing the delete of their family: 200 or 400 for each, no orphan left', async () => {
    for (let round = 0; round < 5; round++) {
      const f = await make.family(`Doomed ${round}`);
      const [deleted, ...creates] = await Promise.all([
        send('DELETE', `/api/v1/families/${f.id}`, undefined, admin),
        ...Array.from({ length: 8 }, (_, i) =>
          send('POST', '/api/v1/species', { family_id: f.id, name_scientific: `Orphana ${round}-${i}` }),
        ),
      ]);
      const createStatuses = creates.map((r) => r.statusCode);
      expect(createStatuses.every((s) => s === 200 || s === 400)).toBe(true);
      for (const r of creates.filter((r) => r.statusCode === 400)) expect(r.json().field).toBe('family_id');
      const created = createStatuses.filter((s) => s === 200).length;
      // The family is gone only if no species made it in; otherwise its delete is refused.
      expect(deleted?.statusCode).toBe(created === 0 ? 200 : 409);
    }
  });

  it('PUT racing DELETE of the same record: the PUT is a full 200 or a 404, never empty', async () => {
    let updated = 0;
    let missed = 0;
    for (let round = 0; round < 10; round++) {
      const f = await make.family(`Vanishing ${round}`);
      const [put, del] = await Promise.all([
        send('PUT', `/api/v1/families/${f.id}`, { name_en: 'renamed' }),
        send('DELETE', `/api/v1/families/${f.id}`, undefined, admin),
      ]);
      expect(del?.statusCode).toBe(200);
      expect([200, 404]).toContain(put?.statusCode);
      if (put?.statusCode === 200) {
        expect(put.json()).toMatchObject({ id: f.id, name_en: 'renamed' });
        updated++;
      } else missed++;
    }
    expect(updated + missed).toBe(10);
  });

  it('an update or delete that finds no row throws NotFound inside its transaction', async () => {
    // What a PUT or DELETE meets when a concurrent DELETE committed after its read.
    const id = randomUUID();
    const repository = catalogueRepository(families, 'family');
    await expect(
      t.database.db.transaction((tx) => repository.update(tx, id, { name_en: 'x' })),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(transaction(t.database.db, (unit) => repository.remove(unit, id))).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});
