/**
 * `npm run bench:crash`: kill -9 under a write load, then restart and check that nothing
 * acknowledged was lost and nothing is half-written.
 *
 * Each run starts the real entry point (src/server.ts) on a database that outlives it, sends
 * creates and updates of families from several writers, kills the process with SIGKILL at a
 * random moment, starts it again on the same database and reads every family back:
 *   - every write answered 200 is there, each field as answered (an update: that version or a
 *     later one that was in flight at the kill);
 *   - every family present is one that was sent, whole: each field equals what one request sent;
 *   - a write that got no answer may or may not be there; both are counted.
 * Exits 1 if any run loses or tears a write.
 *
 * Env: CRASH_RUNS (per backend, default 5), CRASH_BACKENDS (`pglite,postgres`), CRASH_WRITERS
 * (concurrent writers, default 8), CRASH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server to
 * create `plant_crash` on; default: a throwaway cluster).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { loadConfig } from '../src/config.js';
import { type Database, openPglite, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { families } from '../src/db/tables.js';
import { adminQuery, withDatabase } from '../test/helpers/postgres-admin.js';
import { signIn } from '../test/helpers/sessions.js';
import { startThrowawayCluster } from '../test/setup/postgres-cluster.js';
import { prng } from './generate.js';

type Backend = 'pglite' | 'postgres';
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.CRASH_RUNS ?? 5);
const writers = Number(process.env.CRASH_WRITERS ?? 8);
const backends = (process.env.CRASH_BACKENDS ?? 'pglite,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'pglite' || b === 'postgres');

interface Family {
  slug: string;
  name_scientific: string;
  name_en: string | null;
  name_de: string | null;
  description: string | null;
}
const FIELDS = ['slug', 'name_scientific', 'name_en', 'name_de', 'description'] as const;

interface Tally {
  acknowledged: number;
  unanswered: number;
  unansweredPresent: number;
  lost: string[];
  torn: string[];
}

const PUBLIC_URL = 'http://127.0.0.1:8080';
/** Servers still running, killed if this script ends early. */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function startServer(env: Record<string, string>): { child: ChildProcess; base: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: packageDir,
    // The write limiter is off: a quiet machine writes faster than 300 a minute, and this run is about
    // what survives a crash, not about the limiter.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DEMO_DATA: 'false',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const base = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  return { child, base };
}

async function ready(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await fetch(new URL('/ready', base)).catch(() => undefined);
    if (res?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base} not ready within 60 s`);
}

/** One run: load, kill -9, restart, verify. `open` gives the database (closed before the server starts). */
async function crashRun(
  backend: Backend,
  run: number,
  env: Record<string, string>,
  open: () => Promise<Database>,
): Promise<Tally> {
  const config = loadConfig({ DEMO_DATA: 'false', PUBLIC_URL, ...env });
  const database = await open();
  await migrate(database);
  // Families left by earlier runs on the same database.
  const earlier = await countFamilies(database);
  const cookie = `id=${await signIn(database, config, { editor: true })}`;
  await database.close();

  const random = prng(run * 7919 + (backend === 'postgres' ? 1 : 0));
  env = { ...env, PUBLIC_URL };
  const first = startServer(env);
  const base = await first.base;
  await ready(base);

  /** Per slug: the versions a request sent, and the index of the last one acknowledged. */
  const sent = new Map<string, { versions: Family[]; acked: number; writer: number }>();
  const tally: Tally = { acknowledged: 0, unanswered: 0, unansweredPresent: 0, lost: [], torn: [] };
  let killed = false;
  let n = 0;
  const headers = { cookie, origin: config.auth.publicUrl, 'content-type': 'application/json' };

  const writer = async (w: number) => {
    while (!killed) {
      const i = n++;
      // Updates go to this writer's own families whose create was acknowledged: one writer per
      // family, so its writes reach the server in the order they were sent and a newer
      // acknowledged version can be told from an older one.
      const slugs = [...sent].filter(([, e]) => e.acked >= 0 && e.writer === w).map(([slug]) => slug);
      const update = slugs.length > 0 && random() < 0.4;
      let slug: string;
      let version: Family;
      let request: Promise<Response>;
      if (update) {
        slug = slugs[Math.floor(random() * slugs.length)]!;
        const entry = sent.get(slug)!;
        version = { ...entry.versions.at(-1)!, description: `update ${i} by writer ${w} in run ${run}` };
        entry.versions.push(version);
        request = fetch(new URL(`/api/v1/families/${slug}`, base), {
          method: 'PUT',
          headers,
          body: JSON.stringify({ description: version.description }),
        });
      } else {
        const name = `Crashaceae${backend}r${run}n${i}`;
        slug = name.toLowerCase();
        version = {
          slug,
          name_scientific: name,
          name_en: `crash family ${i}`,
          name_de: `Absturzgewächse ${i}`,
          description: `created ${i} by writer ${w} in run ${run}`.repeat(1 + (i % 20)),
        };
        sent.set(slug, { versions: [version], acked: -1, writer: w });
        request = fetch(new URL('/api/v1/families', base), {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name_scientific: version.name_scientific,
            name_en: version.name_en,
            name_de: version.name_de,
            description: version.description,
          }),
        });
      }
      const index = sent.get(slug)!.versions.length - 1;
      const res = await request.catch(() => undefined);
      if (!res) {
        tally.unanswered++;
        continue;
      }
      const body = (await res.json().catch(() => undefined)) as Family | undefined;
      if (res.status !== 200 || !body) {
        if (!killed) throw new Error(`write answered ${res.status}: ${JSON.stringify(body)}`);
        tally.unanswered++;
        continue;
      }
      tally.acknowledged++;
      const entry = sent.get(slug)!;
      entry.acked = Math.max(entry.acked, index);
      for (const field of FIELDS) {
        if (body[field] !== version[field]) tally.torn.push(`${slug}: answered ${field} ${body[field]}`);
      }
    }
  };
  const load = Array.from({ length: writers }, (_, w) => writer(w));
  await new Promise((r) => setTimeout(r, 2_000 + random() * 3_000));
  const exited = new Promise((r) => first.child.once('exit', r));
  first.child.kill('SIGKILL');
  killed = true;
  await exited;
  await Promise.all(load);

  const second = startServer(env);
  const again = await second.base;
  await ready(again);
  try {
    for (const [slug, { versions, acked }] of sent) {
      const res = await fetch(new URL(`/api/v1/families/${slug}`, again));
      if (res.status === 404) {
        if (acked >= 0) tally.lost.push(`${slug}: acknowledged, missing`);
        continue;
      }
      if (res.status !== 200) throw new Error(`reading ${slug}: ${res.status}`);
      const found = (await res.json()) as Family;
      // Whole: equal to one version a request sent, and not older than the last acknowledged one.
      const match = versions.findLastIndex((v) => FIELDS.every((f) => found[f] === v[f]));
      if (match < 0) tally.torn.push(`${slug}: ${JSON.stringify(found)} is no version that was sent`);
      else if (match < acked) tally.lost.push(`${slug}: acknowledged version ${acked}, found ${match}`);
      if (acked < 0) tally.unansweredPresent++;
    }
    // Nothing present that no request sent.
    const list = await fetch(new URL('/api/v1/families?per_page=100&page=1', again));
    const { total } = (await list.json()) as { total: number };
    const present = [...sent.values()].filter((e) => e.acked >= 0).length + tally.unansweredPresent;
    if (total !== earlier + present)
      tally.torn.push(`${total} families listed, ${earlier + present} expected`);
  } finally {
    const done = new Promise((r) => second.child.once('exit', r));
    second.child.kill('SIGTERM');
    await done;
  }
  return tally;
}

async function countFamilies(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(families);
  return row?.n ?? 0;
}

async function main(): Promise<void> {
  let failed = false;
  for (const backend of backends) {
    let env: Record<string, string>;
    let open: () => Promise<Database>;
    let cleanup = async () => {};
    const dir = await mkdtemp(path.join(tmpdir(), 'plant-crash-'));
    if (backend === 'pglite') {
      env = { DATA_DIR: dir };
      open = () => openPglite({ dataDir: path.join(dir, 'pglite') });
    } else {
      let server = process.env.CRASH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
      if (!server) {
        const cluster = await startThrowawayCluster();
        server = cluster.url;
        cleanup = cluster.stop;
      }
      await adminQuery(server, 'drop database if exists plant_crash');
      await adminQuery(server, 'create database plant_crash');
      const url = withDatabase(server, 'plant_crash');
      env = { DATA_DIR: dir, DATABASE_URL: url };
      open = async () => openPostgres({ url, poolSize: 1 });
      const dropDatabase = () => adminQuery(server as string, 'drop database if exists plant_crash');
      const stopCluster = cleanup;
      cleanup = async () => {
        await dropDatabase();
        await stopCluster();
      };
    }
    try {
      for (let run = 1; run <= runs; run++) {
        const t = await crashRun(backend, run, env, open);
        const ok = t.lost.length === 0 && t.torn.length === 0;
        failed ||= !ok;
        console.log(
          `${backend} run ${run}: ${t.acknowledged} acknowledged writes, ${t.lost.length} lost, ${t.torn.length} half-written; ` +
            `${t.unanswered} unanswered at the kill (${t.unansweredPresent} of the creates among them present)`,
        );
        for (const line of [...t.lost, ...t.torn].slice(0, 10)) console.log(`  ${line}`);
      }
    } finally {
      await cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  }
  process.exit(failed ? 1 : 0);
}

await main();
