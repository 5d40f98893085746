/**
 * GET /api/v1/export: the whole database as NDJSON, deterministic, with an ETag; and the
 * round trip export → import into an empty database → export, byte for byte.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLine } from '../../src/dataset/export.js';
import { checkInput, importDataset } from '../../src/dataset/import.js';
import { KINDS } from '../../src/dataset/kinds.js';
import { STARTER_DATA_DIR } from '../../src/dataset/starter.js';
import { exportToDirectory } from '../../src/dataset/write.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'export-test-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (app: TestApp, headers: Record<string, string> = {}) =>
  app.app.inject({ url: '/api/v1/export', headers });

/**
 * The dump the files should give, computed without a database: records sorted by identity (byte
 * order), keys in schema order, nulls left out.
 */
async function expectedDump(input: string): Promise<string> {
  const { sources, problems } = await checkInput([input]);
  expect(problems).toEqual([]);
  const byte = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return KINDS.map((kind) => {
    const records = sources.filter((s) => s.kind === kind).map((s) => s.record);
    const key = (r: Record<string, unknown>) => kind.identity.map((f) => String(r[f]));
    records.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return byte(x[0] ?? '', y[0] ?? '') || byte(x[1] ?? '', y[1] ?? '');
    });
    return records
      .map((r) => {
        const canonical: Record<string, unknown> = {};
        for (const field of Object.keys(kind.schema.properties)) {
          if (r[field] !== undefined && r[field] !== null) canonical[field] = r[field];
        }
        return exportLine(kind, canonical);
      })
      .join('');
  }).join('');
}

describe('GET /api/v1/export', () => {
  it('answers an empty database with an empty dump, an ETag, and 304 for that ETag', async () => {
    const res = await get(t);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe('');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await get(t, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
  });

  it('exports the starter dataset: every record, by slug, in dependency order, exactly as data/ says', async () => {
    const report = await importDataset(t.database, [STARTER_DATA_DIR]);
    expect(report.species.inserted).toBeGreaterThanOrEqual(300);
    const res = await get(t);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(await expectedDump(STARTER_DATA_DIR));

    const types = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type);
    expect([...new Set(types)]).toEqual(KINDS.map((k) => k.name));
    expect(res.body).not.toMatch(/"(id|family_id|species_id|created_at|updated_at|primary_image_key)"/);
  });

  // Fills three more databases with the whole starter dataset, which can outlast the default timeout on a busy machine.
  it('round trip: export → import into an empty database → export again gives the same bytes', async () => {
    const first = await get(t);
    const file = path.join(dir, 'dump.ndjson');
    await writeFile(file, first.rawPayload);

    const mirror = await createTestApp();
    try {
      await importDataset(mirror.database, [file]);
      const second = await get(mirror);
      expect(second.body).toBe(first.body);
      expect(second.body.length).toBeGreaterThan(100_000);

      // The per-resource files of the CLI, JSON Lines and CSV, carry the same data.
      for (const format of ['jsonl', 'csv'] as const) {
        const out = path.join(dir, format);
        await exportToDirectory(mirror.database, out, format);
        const third = await createTestApp();
        try {
          await importDataset(third.database, [out]);
          expect((await get(third)).body, format).toBe(first.body);
        } finally {
          await third.close();
        }
      }
    } finally {
      await mirror.close();
    }
  }, 120_000);

  it('changes the ETag on every write and keeps it through an import that changes nothing', async () => {
    const etag = async () => (await get(t)).headers.etag as string;
    const before = await etag();
    expect(await etag()).toBe(before);

    const report = await importDataset(t.database, [STARTER_DATA_DIR]);
    expect(report.species).toEqual({ inserted: 0, updated: 0, unchanged: report.species.unchanged });
    expect(await etag()).toBe(before);

    const cookie = await t.cookie({ admin: true });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/species/malus-domestica',
      headers: { cookie },
      payload: { nectar_value: 2 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const afterUpdate = await etag();
    expect(afterUpdate).not.toBe(before);
    expect((await get(t, { 'if-none-match': before })).statusCode).toBe(200);
    expect((await get(t)).body).toContain('"slug":"malus-domestica"');

    const companions = (await t.app.inject({ url: '/api/v1/companions' })).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/companions/${companions[0].id}`,
      headers: { cookie },
    });
    expect(del.statusCode).toBe(200);
    const afterDelete = await etag();
    expect(afterDelete).not.toBe(afterUpdate);

    // If-None-Match compares weakly and takes a list (RFC 9110 §13.1.2), or *.
    for (const header of [`W/${afterDelete}`, `"x", ${afterDelete}`, '*']) {
      expect((await get(t, { 'if-none-match': header })).statusCode, header).toBe(304);
    }
  });

  it('serves concurrent requests the same snapshot, and HEAD without a body', async () => {
    const [a, b, c] = await Promise.all([get(t), get(t), get(t)]);
    expect(a.body.length).toBeGreaterThan(0);
    expect(b.body).toBe(a.body);
    expect(c.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/v1/export' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(a.headers.etag);
    expect(head.body).toBe('');
  });
});
