/**
 * Every URL a client may write (supplier `url`, a supplier link's `product_url`, a companion's and
 * an image's `source_url`, a species' `usesdb_url` and `source_urls`) is an http or https URL:
 * any other scheme, however disguised, is a 400 naming the field.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemStore } from '../../src/storage/filesystem-store.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { backend } from '../helpers/database.js';
import { fixtures } from '../helpers/fixtures.js';
import { png } from '../helpers/storage-images.js';
import { uploader } from '../helpers/storage-upload.js';

const HOSTILE = [
  'javascript:alert(1)',
  ' javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/x',
  '\thttps://example.org/',
];

let t: TestApp;
let dir: string;
let cookie: string;
let ids: { family: string; a: string; b: string; cultivar: string; supplier: string };
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'plant-urls-'));
  t = await createTestApp(
    { RATE_LIMIT_WRITES_PER_MINUTE: '0' },
    { store: new FilesystemStore(path.join(dir, 'images')) },
  );
  cookie = await t.cookie();
  const make = fixtures(t, cookie);
  const family = await make.family('Urlaceae');
  const a = await make.species(family.id, 'Urla prima');
  const b = await make.species(family.id, 'Urla secunda');
  const cultivar = await make.cultivar(a.id, 'Linky');
  const supplier = await make.supplier('Scheme Seeds');
  ids = { family: family.id, a: a.id, b: b.id, cultivar: cultivar.id, supplier: supplier.id };
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, payload });

describe(`URL fields accept http and https only (${backend})`, () => {
  const cases: [string, (value: string, n: number) => Promise<{ statusCode: number; json(): unknown }>][] = [
    ['url', (url, n) => post('/api/v1/suppliers', { name: `Supplier ${n}`, url })],
    [
      'product_url',
      (product_url) =>
        post(`/api/v1/cultivars/${ids.cultivar}/suppliers`, { supplier_id: ids.supplier, product_url }),
    ],
    [
      'source_url',
      (source_url) =>
        post('/api/v1/companions', {
          species_a_id: ids.a,
          species_b_id: ids.b,
          relationship: 'beneficial',
          source_url,
        }),
    ],
    [
      'usesdb_url',
      (usesdb_url, n) =>
        post('/api/v1/species', { family_id: ids.family, name_scientific: `Urla tertia${n}`, usesdb_url }),
    ],
    [
      'source_urls.1',
      (url, n) =>
        post('/api/v1/species', {
          family_id: ids.family,
          name_scientific: `Urla quarta${n}`,
          source_urls: ['https://example.org/ok', url],
        }),
    ],
  ];

  for (const [field, send] of cases) {
    it(`${field}: refuses other schemes with a 400 naming it`, async () => {
      let n = 0;
      for (const value of HOSTILE) {
        const res = await send(value, n++);
        expect(res.statusCode, `${field} ${JSON.stringify(value)}`).toBe(400);
        const body = res.json() as { error: string; field: string };
        expect(body.field).toBe(field);
        expect(body.error).toContain(field);
      }
    });
  }

  it('accepts http and https, in any case', async () => {
    expect(
      (await post('/api/v1/suppliers', { name: 'Plain', url: 'http://seeds.example/' })).statusCode,
    ).toBe(200);
    expect(
      (await post('/api/v1/suppliers', { name: 'Loud', url: 'HTTPS://SEEDS.example/x' })).statusCode,
    ).toBe(200);
  });

  it("an image's source_url: refuses javascript: with a 400 naming it", async () => {
    const upload = uploader(t, cookie);
    const image = await png(8, 8);
    for (const source_url of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)']) {
      const res = await upload(
        { entity_type: 'species', entity_id: ids.a, source_url },
        image,
        'a.png',
        'image/png',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('source_url');
    }
    const ok = await upload(
      { entity_type: 'species', entity_id: ids.a, source_url: 'https://example.org/a' },
      image,
      'a.png',
      'image/png',
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
