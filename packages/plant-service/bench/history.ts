/**
 * `npm run bench:history`: what the change log's triggers cost, on PostgreSQL with durable
 * settings. Measured with the log's row triggers disabled (`ALTER TABLE … DISABLE TRIGGER`, the
 * "before" figure) and enabled:
 * - one species update as the service writes it (its own transaction, the writer declared, the
 *   row's JSON text rewritten), sequentially: p50 and p99, off and on in alternating rounds;
 * - the same update from 8 concurrent writers: updates per second (every writer's commit waits for
 *   the counter's lock while another numbers and commits);
 * - the import of the benchmark's dataset (the starter families and BENCH_SPECIES species cloned
 *   from its real ones) into an empty database, in one transaction;
 * - reading the whole feed the import wrote, 1,000 entries per page, through the HTTP route.
 * Writes its section of bench/RESULTS.md.
 *
 * Env: BENCH_DATABASE_URL (a server to create `plant_bench_history` on; default: a throwaway
 * cluster with fsync, synchronous_commit and full_page_writes on), BENCH_SPECIES (default 20000:
 * two 50,000-species imports and their feed take minutes on a shared two-core machine).
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { importRecords } from '../src/dataset/import.js';
import type { SourceRecord } from '../src/dataset/read.js';
import { readDataset } from '../src/dataset/read.js';
import { STARTER_DATA_DIR } from '../src/dataset/starter.js';
import { withActor } from '../src/db/actor.js';
import { catalogueRepository } from '../src/db/catalogue-repository.js';
import { type Database, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { species, users } from '../src/db/tables.js';
import { transaction } from '../src/db/transaction.js';
import { slugify } from '../src/lib/slug.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { durableServer, writeSection } from './measure.js';

const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const SPECIES = Number(process.env.BENCH_SPECIES ?? 20_000);
const UPDATES = 400;
const WRITERS = 8;
const UPDATES_PER_WRITER = 60;
const ROUNDS = 4;
const DB_NAME = 'plant_bench_history';
const LOG_TRIGGERS = [
  ['families', 'families_record_change'],
  ['species', 'species_record_change'],
  ['cultivars', 'cultivars_record_change'],
  ['suppliers', 'suppliers_record_change'],
  ['cultivar_suppliers', 'cultivar_suppliers_record_change'],
  ['companions', 'companions_record_change'],
  ['images', 'images_record_change'],
] as const;

async function setLogTriggers(database: Database, on: boolean): Promise<void> {
  for (const [table, trigger] of LOG_TRIGGERS) {
    await database.db.execute(
      sql.raw(`alter table ${table} ${on ? 'enable' : 'disable'} trigger ${trigger}`),
    );
  }
}

/** The starter families and SPECIES species cloned from its real ones, as the import reads them. */
async function dataset(): Promise<SourceRecord[]> {
  const { records } = await readDataset([STARTER_DATA_DIR]);
  const families = records.filter((r) => r.kind.name === 'family');
  const templates = records.filter((r) => r.kind.name === 'species');
  const cloned = Array.from({ length: SPECIES }, (_, i): SourceRecord => {
    const template = templates[i % templates.length] as SourceRecord;
    const name = `${template.record.name_scientific} bench ${String(i).padStart(5, '0')}`;
    return {
      ...template,
      record: { ...template.record, slug: slugify(name), name_scientific: name, name_en: `bench ${i}` },
    };
  });
  return [...families, ...cloned];
}

const ms = (n: number) => n.toFixed(2);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

interface UpdateFigures {
  p50: number;
  p99: number;
  concurrentPerSecond: number;
}

/**
 * Species updates with the log off and on, on the same database in alternating rounds, so that
 * the other work on a shared machine weighs on both alike.
 */
async function measureUpdates(
  database: Database,
  ids: string[],
  userId: string,
): Promise<Record<'off' | 'on', UpdateFigures>> {
  const repo = catalogueRepository(species, 'species');
  let n = 0;
  const update = (id: string) =>
    withActor({ kind: 'user', userId, reason: 'benchmark' }, () =>
      transaction(database.db, ({ tx }) => repo.update(tx, id, { name_en: `bench edit ${n++}` })),
    );
  for (let i = 0; i < 50; i++) await update(ids[i % ids.length] as string);
  const times = { off: [] as number[], on: [] as number[] };
  const concurrent = { off: 0, on: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['off', 'on'] as const) {
      await setLogTriggers(database, mode === 'on');
      for (let i = 0; i < UPDATES / ROUNDS; i++) {
        const start = performance.now();
        await update(ids[(n * 7919) % ids.length] as string);
        times[mode].push(performance.now() - start);
      }
      const start = performance.now();
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          for (let i = 0; i < UPDATES_PER_WRITER / ROUNDS; i++) {
            await update(ids[(w * 1009 + n * 31) % ids.length] as string);
          }
        }),
      );
      concurrent[mode] += (performance.now() - start) / 1000;
    }
  }
  await setLogTriggers(database, true);
  const figures = (mode: 'off' | 'on'): UpdateFigures => {
    const sorted = times[mode].sort((a, b) => a - b);
    return {
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      concurrentPerSecond: (WRITERS * UPDATES_PER_WRITER) / concurrent[mode],
    };
  };
  return { off: figures('off'), on: figures('on') };
}

async function main(): Promise<void> {
  const { url: server, settings, stop: stopServer } = await durableServer();
  const url = withDatabase(server, DB_NAME);
  const freshDatabase = async () => {
    await adminQuery(server, `drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(server, `create database ${DB_NAME}`);
    const database = openPostgres({ url, poolSize: WRITERS + 2 });
    await migrate(database);
    return database;
  };

  try {
    const records = await dataset();
    const imports: Record<'off' | 'on', number> = { off: 0, on: 0 };
    let updates = {} as Record<'off' | 'on', UpdateFigures>;
    let feed = { pages: 0, entries: 0, p50: 0, p99: 0, total: 0 };
    for (const mode of ['off', 'on'] as const) {
      const database = await freshDatabase();
      await setLogTriggers(database, mode === 'on');
      const start = performance.now();
      await importRecords(database, records);
      imports[mode] = (performance.now() - start) / 1000;
      console.log(`import, log triggers ${mode}: ${imports[mode].toFixed(1)} s`);

      const [user] = await database.db
        .insert(users)
        .values({
          issuer: 'https://bench.invalid',
          subject: 'bench',
          email: 'bench@example.invalid',
          name: 'Bench',
        })
        .returning({ id: users.id });
      const ids = (await database.db.select({ id: species.id }).from(species)).map((r) => r.id);
      if (mode === 'on') {
        updates = await measureUpdates(database, ids, user!.id);
        console.log('updates:', updates);
        const app = await buildApp({
          config: loadConfig({ DEMO_DATA: 'false', DATABASE_URL: url }),
          database,
        });
        await app.ready();
        const times: number[] = [];
        let after = 0;
        const begin = performance.now();
        for (;;) {
          const t0 = performance.now();
          const res = await app.inject({ url: `/api/v1/changes?after=${after}&limit=1000` });
          if (res.statusCode !== 200) throw new Error(`feed answered ${res.statusCode}`);
          const page = res.json() as { data: unknown[]; next: number };
          if (page.data.length === 0) break;
          times.push(performance.now() - t0);
          feed.entries += page.data.length;
          after = page.next;
        }
        feed.total = (performance.now() - begin) / 1000;
        times.sort((a, b) => a - b);
        feed = { ...feed, pages: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
        console.log('feed:', feed);
        await app.close();
      }
      await database.close();
    }

    const n = (x: number) => x.toLocaleString('en-US');
    const pct = (on: number, off: number) =>
      `${on >= off ? '+' : ''}${(((on - off) / off) * 100).toFixed(0)} %`;
    await writeSection(
      resultsFile,
      'bench:history',
      `
## Change log: what its triggers cost — \`npm run bench:history\`

Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (shared with other work), Node ${process.version};
${settings}. "Off" is the same database with the log's seven row triggers disabled
(\`ALTER TABLE … DISABLE TRIGGER\`), "on" as deployed. Data: the starter dataset's families and
${n(SPECIES)} species cloned from its real ones${SPECIES < 50_000 ? ' (fewer than the 50,000 of `bench:import`: two imports of 50,000 and their feed take over four minutes on this shared machine; `BENCH_SPECIES=50000` runs the full size)' : ''}. The updates run on
the imported database in ${ROUNDS} alternating rounds per mode (the machine's other work weighs on both
alike); the two imports ran one after the other, each into a new database.

| what | log off | log on | cost |
|---|---:|---:|---:|
| one species update, its own transaction: p50 | ${ms(updates.off.p50)} ms | ${ms(updates.on.p50)} ms | ${pct(updates.on.p50, updates.off.p50)} |
| one species update: p99 (${UPDATES} sequential) | ${ms(updates.off.p99)} ms | ${ms(updates.on.p99)} ms | ${pct(updates.on.p99, updates.off.p99)} |
| ${WRITERS} concurrent writers, updates per second | ${updates.off.concurrentPerSecond.toFixed(0)} | ${updates.on.concurrentPerSecond.toFixed(0)} | ${pct(updates.on.concurrentPerSecond, updates.off.concurrentPerSecond)} |
| import of ${n(SPECIES)} species into an empty database | ${imports.off.toFixed(1)} s | ${imports.on.toFixed(1)} s | ${pct(imports.on, imports.off)} |

Feed read after the import (log on): ${n(feed.entries)} entries in ${feed.pages} pages of 1,000 through
\`GET /api/v1/changes\` (inject, no socket): p50 ${ms(feed.p50)} ms, p99 ${ms(feed.p99)} ms per page,
${feed.total.toFixed(1)} s for the whole log. A species create entry holds every non-null field, so a page
of 1,000 is a few MB of JSON.
`,
    );
    console.log(`wrote ${resultsFile}`);
  } finally {
    await adminQuery(server, `drop database if exists ${DB_NAME} with (force)`).catch(() => undefined);
    await stopServer();
  }
}

await main();
