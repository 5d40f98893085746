/**
 * Property-based fuzzing from the served OpenAPI document (helpers/fuzz-requests.ts), seeded and
 * shrinking (fast-check). For every generated request: never a 5xx, an answer within 5 s, every
 * error an `{error}` that names its field where it gives one, every response valid against the
 * document (the test app checks that on each response), and a record written with a 200 reads
 * back exactly as answered. FUZZ_RUNS (default 2,000) and FUZZ_SEED choose the run; `npm run
 * fuzz` runs 50,000 and prints the counts by status.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { createTestApp, type TestApp } from '../helpers/app.js';
import type { OpenApiDocument } from '../helpers/contract.js';
import { backend } from '../helpers/database.js';
import { fixtures } from '../helpers/fixtures.js';
import { type FuzzRequest, fuzzRequests } from '../helpers/fuzz-requests.js';
import { png } from '../helpers/storage-images.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const HANG_MS = 5_000;
const RECORDS = /^\/api\/v1\/(families|species|cultivars|suppliers)(\/[^/?]+)?$/;

let t: TestApp;
let sessions: Record<FuzzRequest['session'], string | undefined>;
let document: OpenApiDocument;
let refs: string[];
let image: Buffer;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_WRITES_PER_MINUTE: '0', RATE_LIMIT_AUTH_PER_MINUTE: '0' });
  sessions = { none: undefined, writer: await t.cookie(), admin: await t.cookie({ admin: true }) };
  const make = fixtures(t, sessions.writer as string);
  const family = await make.family('Fuzzaceae');
  const a = await make.species(family.id, 'Fuzza prima');
  const b = await make.species(family.id, 'Fuzza secunda');
  const cultivar = await make.cultivar(a.id, 'Chaos');
  const supplier = await make.supplier('Random Seeds');
  const companion = await make.companion(a.id, b.id);
  refs = [family, a, b, cultivar, supplier].flatMap((r) => [r.id, r.slug]).concat(companion.id);
  document = YAML.parse((await t.app.inject({ url: '/api/openapi.yaml' })).body);
  image = await png(16, 16);
}, 180_000);
afterAll(() => t.close());

function withinDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms: ${what}`)), HANG_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

describe(`fuzzing every operation from the OpenAPI document (${backend})`, () => {
  it(`${RUNS} generated requests keep the contract`, { timeout: 60_000 + RUNS * 60 }, async () => {
    const counts: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fuzzRequests(document, refs, image, new Set()), async (request) => {
        const cookie = sessions[request.session];
        const what = `${request.method} ${request.url.slice(0, 300)}`;
        const res = await withinDeadline(
          t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: { ...request.headers, ...(cookie ? { cookie } : {}) },
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          }),
          what,
        );
        counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
        // This app has no OIDC provider configured: its login routes answer their documented 503.
        const unconfigured = res.statusCode === 503 && request.url.startsWith('/auth/oidc/');
        if (!unconfigured) expect(res.statusCode, `${what} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400 && request.method !== 'HEAD') {
          const error = res.json() as { error: string; field?: string };
          expect(error.error.length).toBeGreaterThan(0);
          if (res.statusCode === 400 && error.field !== undefined) expect(error.error).toContain(error.field);
        }
        const path = request.url.split('?')[0] ?? '';
        if (
          res.statusCode === 200 &&
          (request.method === 'POST' || request.method === 'PUT') &&
          RECORDS.test(path)
        ) {
          // What was answered is what is stored, and every text field sent is stored as sent.
          const written = res.json() as Record<string, unknown>;
          const resource = RECORDS.exec(path)?.[1];
          const read = await t.app.inject({ url: `/api/v1/${resource}/${written.id}` });
          expect(read.json()).toEqual(written);
          for (const [key, value] of Object.entries(request.json ?? {})) {
            if (typeof value === 'string' && key in written) expect(written[key], key).toBe(value);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    const summary = Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    console.log(`fuzz (${backend}, seed ${SEED}): ${RUNS} requests; by status ${summary}`);
  });
});
