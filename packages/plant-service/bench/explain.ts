/**
 * `npm run bench:explain`: the query plans behind the benchmark's realistic scenarios. Builds the
 * app in this process on the benchmark's database (EXPLAIN_DATABASE_URL, or the PGlite directory
 * bench/.work/pglite-data when unset), sends a few typical worst-case requests per scenario,
 * records every statement they run, and prints how many statements each request sent and
 * EXPLAIN (ANALYZE, BUFFERS) of the slowest one per scenario as Markdown. EXPLAIN_SCENARIOS
 * (words a scenario's name must contain, comma-separated) picks scenarios.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, type Db, openPglite } from '../src/db/client.js';
import * as tables from '../src/db/tables.js';

type Sent = string | { method: 'POST'; url: string; payload: object };

const SCENARIOS: Record<string, Sent[]> = {
  'species by slug': ['/api/v1/species/species-31337'],
  'filtered species list': [
    '/api/v1/species?plant_layer=herb&nitrogen_fixer=true&min_nectar=3&page=5',
    '/api/v1/species?family=family-17&min_nectar=2&page=2',
    '/api/v1/species?dynamic_accumulator=true&page=4',
  ],
  'cultivar list': ['/api/v1/cultivars?page=200', '/api/v1/cultivars?species=species-4242'],
  'type-ahead search': [
    '/api/v1/search?q=din',
    '/api/v1/search?q=rato',
    `/api/v1/search?q=${encodeURIComponent('sal mon')}`,
    '/api/v1/search?q=qzxv',
  ],
  'species list, hardiness zone': [
    '/api/v1/species?hardiness_zone=6&page=3',
    '/api/v1/species?hardiness_zone=8b&plant_layer=shrub&nitrogen_fixer=true',
    '/api/v1/species?hardiness_zone=5a&family=family-17&page=2',
  ],
  'species list with facets': [
    '/api/v1/species?family=family-17&facets=plant_layer,family,native_status,drought_tolerance,nitrogen_fixer',
    '/api/v1/species?family=family-42&hardiness_zone=7&plant_layer=herb&facets=plant_layer,family,native_status,drought_tolerance,nitrogen_fixer',
  ],
  'guild around a species': [
    '/api/v1/species/species-31337/guild?limit=5',
    '/api/v1/species/species-4242/guild?limit=5&hardiness_zone=9b',
    '/api/v1/species/species-777/guild?limit=5&hardiness_zone=4&native_status=neophyte',
  ],
  'guild check': [
    {
      method: 'POST',
      url: '/api/v1/guilds/check',
      payload: {
        species: Array.from({ length: 12 }, (_, i) => `species-${1000 + i * 3}`),
        hardiness_zone: '6a',
      },
    },
  ],
  'planting calendar': [
    '/api/v1/calendar?month=4&year=2026&page=5',
    '/api/v1/calendar?week=30&year=2026&activity=harvesting&page=3',
    '/api/v1/calendar?week=14&year=2026&species=species-31337',
  ],
};
const only = (process.env.EXPLAIN_SCENARIOS ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);

interface Statement {
  sql: string;
  params: unknown[];
}

const captured: Statement[] = [];
const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) };

async function open(): Promise<{
  database: Database;
  raw: (sql: string, params: unknown[]) => Promise<string[]>;
}> {
  const url = process.env.EXPLAIN_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    return {
      database: {
        db: drizzlePg({ client: pool, schema: tables, logger }) as unknown as Db,
        kind: 'postgres',
        url,
        close: () => pool.end(),
      },
      raw: async (sql, params) =>
        (await pool.query<{ 'QUERY PLAN': string }>(sql, params)).rows.map((r) => r['QUERY PLAN']),
    };
  }
  const dir = fileURLToPath(new URL('.work/pglite-data/pglite', import.meta.url));
  const base = await openPglite({ dataDir: path.resolve(dir) });
  const client = (base.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
  const { drizzle } = await import('drizzle-orm/pglite');
  return {
    database: { ...base, db: drizzle({ client, schema: tables, logger }) as unknown as Db },
    raw: async (sql, params) =>
      (await client.query<{ 'QUERY PLAN': string }>(sql, params)).rows.map((r) => r['QUERY PLAN']),
  };
}

const { database, raw } = await open();
const app = await buildApp({ config: loadConfig({ RESPONSE_CACHE_MB: '0' }), database });
await app.ready();
console.log(`# Query plans (${database.kind})\n`);
for (const [scenario, sent] of Object.entries(SCENARIOS)) {
  if (only.length > 0 && !only.some((w) => scenario.includes(w))) continue;
  let slowest: { ms: number; plan: string[]; url: string } | undefined;
  const counts: string[] = [];
  for (const request of sent) {
    const url = typeof request === 'string' ? request : request.url;
    captured.length = 0;
    const res = await app.inject(typeof request === 'string' ? { url } : request);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    const method = typeof request === 'string' ? 'GET' : request.method;
    let sum = 0;
    for (const { sql, params } of [...captured]) {
      // Transaction control is skipped; a SET LOCAL is replayed for the rest of the session.
      if (/^\s*(begin|commit|rollback)/i.test(sql)) continue;
      if (/^\s*set local /i.test(sql)) {
        await raw(sql.replace(/^\s*set local /i, 'set '), params);
        continue;
      }
      const plan = await raw(`explain (analyze, buffers) ${sql}`, params);
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? 0);
      sum += ms;
      if (!slowest || ms > slowest.ms) slowest = { ms, plan, url: `${method} ${url}` };
    }
    counts.push(`\`${method} ${url}\`: ${captured.length} statements, ${sum.toFixed(1)} ms executing`);
  }
  console.log(`## ${scenario}\n\n${counts.map((c) => `- ${c}`).join('\n')}\n`);
  console.log(`Slowest statement ${slowest!.ms.toFixed(1)} ms (\`${slowest!.url}\`)\n`);
  console.log(`\`\`\`\n${slowest!.plan.join('\n')}\n\`\`\`\n`);
}
await app.close();
await database.close();
