/**
 * Normal reads beside a hostile mix: does abuse on one route slow everyone else down?
 *
 * The compiled service (as `npm start` runs it) on the embedded database with the starter dataset
 * serves a mix of reads (species by slug, species list pages, search) at 10 connections for
 * HOSTILE_SECONDS (default 10) quietly, then for as long again while, at the same time:
 * - deeply nested JSON (5,000 levels) goes to POST /api/v1/guilds/check;
 * - a few raw sockets send a POST's body one byte every 200 ms;
 * - an editor uploads a small PNG whose header claims huge dimensions (a decode bomb).
 * Write rate limits are off (RATE_LIMIT_WRITES_PER_MINUTE=0) so every hostile request reaches its
 * parser or decoder instead of an early 429: the worst case for the readers.
 *
 * Every loop is bounded in count and time; loopback only. Writes its section of bench/RESULTS.md.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { loadStarterDataIfEmpty } from '../src/dataset/starter.js';
import { openPglite } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { signIn } from '../test/helpers/sessions.js';
import {
  freePort,
  type LoadResult,
  load,
  startChild,
  startCommand,
  stopChild,
  waitFor,
  writeSection,
} from './measure.js';

const seconds = Number(process.env.HOSTILE_SECONDS ?? 10);
const connections = 10;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));

interface Species {
  slug: string;
  name_scientific: string;
  name_en: string;
}
const species = readFileSync(path.join(packageDir, 'data/species.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Species);

/** A seeded generator (mulberry32): both phases send the same sequence of reads. */
function reads(seed = 5): () => string {
  let s = seed;
  const rnd = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = () => species[Math.floor(rnd() * species.length)]!;
  return () => {
    const r = rnd();
    if (r < 0.5) return `/api/v1/species/${pick().slug}`;
    if (r < 0.75) return `/api/v1/species?page=${1 + Math.floor(rnd() * 5)}`;
    const s = pick();
    const word = (rnd() < 0.5 ? s.name_en : s.name_scientific).split(' ')[0]!;
    return `/api/v1/search?q=${encodeURIComponent(word.slice(0, 3 + Math.floor(rnd() * 4)))}`;
  };
}

/** Writes the starter dataset and an editor's session into a fresh embedded database. */
async function prepare(dataDir: string): Promise<string> {
  const database = await openPglite({ dataDir: path.join(dataDir, 'pglite') });
  try {
    await migrate(database);
    await loadStarterDataIfEmpty(database);
    return `id=${await signIn(database, loadConfig({ DEMO_DATA: 'false' }), { editor: true })}`;
  } finally {
    await database.close();
  }
}

/** A 7000 × 7000 PNG of one colour: a few hundred KB that decode to hundreds of MB. */
async function decodeBomb(): Promise<{ png: Buffer; bits: number }> {
  const image = sharp({ create: { width: 7000, height: 7000, channels: 4, background: '#fff' } });
  try {
    return {
      png: await image.clone().toColourspace('rgb16').png({ compressionLevel: 9 }).toBuffer(),
      bits: 16,
    };
  } catch {
    return { png: await image.png({ compressionLevel: 9 }).toBuffer(), bits: 8 };
  }
}

type Counts = Map<string, number>;
const count = (counts: Counts, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/** Runs `once` back to back in `parallel` loops until stopped or `max` calls were made. */
function repeat(parallel: number, max: number, once: () => Promise<void>) {
  let stopped = false;
  let calls = 0;
  const loops = Array.from({ length: parallel }, async () => {
    while (!stopped && calls < max) {
      calls++;
      await once();
    }
  });
  return async () => {
    stopped = true;
    await Promise.all(loops);
  };
}

/** A POST whose body of `length` bytes arrives one byte every 200 ms; resolves with the status line's code. */
function slowBody(port: number, signal: AbortSignal, length = 10_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (result: string) => {
      clearInterval(timer);
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const onAbort = () =>
      done(answer ? (/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'other') : 'still open at the end');
    signal.addEventListener('abort', onAbort);
    socket.on('connect', () => {
      socket.write(
        `POST /api/v1/guilds/check HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      );
      timer = setInterval(() => {
        if (sent++ < length) socket.write(' ');
      }, 200);
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) done(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'other');
    });
    socket.on('error', () => done('socket error'));
    socket.on('close', () =>
      done(answer ? (/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'other') : 'closed by server'),
    );
  });
}

function hostileMix(base: string, port: number, cookie: string, bomb: Buffer, speciesId: string) {
  const counts: Counts = new Map();
  const controller = new AbortController();
  const depth = 5_000;
  const deep = `{"species":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const send = async (kind: string, url: string, init: RequestInit) => {
    try {
      const res = await fetch(url, { ...init, signal: controller.signal });
      await res.arrayBuffer();
      count(counts, `${kind} ${res.status}`);
    } catch (error) {
      if (!controller.signal.aborted) count(counts, `${kind} ${(error as Error).name}`);
    }
  };
  const stops = [
    repeat(2, 100_000, () =>
      send('deep JSON', `${base}/api/v1/guilds/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deep,
      }),
    ),
    repeat(4, 1_000, async () => {
      const status = await slowBody(port, controller.signal);
      count(counts, `slow body ${status}`);
    }),
    repeat(2, 10_000, () => {
      const form = new FormData();
      form.set('entity_type', 'species');
      form.set('entity_id', speciesId);
      form.set('file', new Blob([new Uint8Array(bomb)], { type: 'image/png' }), 'bomb.png');
      return send('decode bomb', `${base}/api/v1/images`, {
        method: 'POST',
        headers: { cookie, origin: base },
        body: form,
      });
    }),
  ];
  return async () => {
    controller.abort();
    await Promise.all(stops.map((stop) => stop()));
    return counts;
  };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'plants-hostile-'));
const start = startCommand(packageDir);
let server: ReturnType<typeof startChild> | undefined;
try {
  const [cookie, { png, bits }] = await Promise.all([prepare(dataDir), decodeBomb()]);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = startChild(
    start.entry,
    [],
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
    },
    packageDir,
    start.flags,
  );
  await waitFor(`${base}/ready`, 120_000);
  const speciesId = (
    (await (await fetch(`${base}/api/v1/species/${species[0]!.slug}`)).json()) as { id: string }
  ).id;

  const opts = { seconds, connections, warmup: 0 };
  // As long as a phase, from another seed: JIT, pools and the response cache are warm for both
  // measured phases (the starter dataset's paths are few enough to all be seen here).
  await load(base, reads(99), opts);
  const quiet = await load(base, reads(), opts);
  console.log(`quiet: ${quiet.rps.toFixed(0)} req/s p50 ${quiet.p50} ms p99 ${quiet.p99} ms`);
  const stopHostile = hostileMix(base, port, cookie, png, speciesId);
  // A second for the hostile loops to get going before the readers are timed.
  await new Promise((r) => setTimeout(r, 1_000));
  const hostile = await load(base, reads(), opts);
  const counts = await stopHostile();
  console.log(`hostile: ${hostile.rps.toFixed(0)} req/s p50 ${hostile.p50} ms p99 ${hostile.p99} ms`);

  const ratio = hostile.p99 / Math.max(quiet.p99, 1);
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${(100 * r.hitRatio).toFixed(0)} % |`;
  const statuses = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`);
  const load1 = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const body = `## Hostile mix

\`npm run bench:hostile -w @plants/plant-service\` (HOSTILE_SECONDS, default 10): the compiled service on
the embedded database with the starter dataset; normal reads (50 % species by slug, 25 % list pages 1–5,
25 % search) at ${connections} connections, after a ${seconds} s warm-up, for ${seconds} s quietly, then ${seconds} s beside: 5,000-deep JSON to
POST /api/v1/guilds/check (2 loops), 4 sockets sending a body one byte every 200 ms, and an editor
uploading a ${png.length.toLocaleString('en')}-byte 7000 × 7000 ${bits}-bit PNG (2 loops). Write rate limits off, so
every hostile request reaches its parser or decoder.

| normal reads | req/s | p50 ms | p99 ms | errors + non-2xx | cache hits |
|---|---|---|---|---|---|
${row('quiet', quiet)}
${row('beside the hostile mix', hostile)}

p99 hostile / quiet: **${ratio.toFixed(2)}×** (target ≤ 2×). Hostile requests by status: ${statuses.join(', ')}.
Machine: ${os.cpus().length} cores shared with other work, load average ${load1} at the end; one run.`;
  console.log(`\n${body}`);
  await writeSection(resultsFile, 'hostile', body);
} finally {
  if (server) await stopChild(server);
  await rm(dataDir, { recursive: true, force: true });
}
