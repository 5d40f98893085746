/**
 * `npm run bench:images`: GET /img/{key} of one 200 KB JPEG from the service with the
 * filesystem backend and with the S3 backend (s3rver, in its own process), against a bare
 * node:http server streaming the same file, all in the same run; autocannon with 50 connections
 * after a warm-up. Target: the filesystem backend at ≥ 60 % of the baseline's req/s. Writes its
 * section of bench/RESULTS.md.
 *
 * The object is put into each store directly (the /img path reads only the store, never the
 * database), so no sign-in is needed. Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { FilesystemStore } from '../src/storage/filesystem-store.js';
import type { ObjectStore } from '../src/storage/object-store.js';
import { S3Store } from '../src/storage/s3-store.js';
import {
  freePort,
  type LoadResult,
  load,
  peakRss,
  startChild,
  stopChild,
  waitFor,
  writeSection,
} from './measure.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const opts = { seconds, connections, warmup: 2 };
const BUCKET = 'bench-images';
const TARGET = 0.6;

/** A photo-like JPEG of about 200 KB: noise compresses about as badly as foliage does. */
async function photo(): Promise<Buffer> {
  let best: Buffer | undefined;
  for (const quality of [60, 70, 80, 85, 90]) {
    const data = await sharp({
      create: {
        width: 640,
        height: 480,
        channels: 3,
        background: '#3a7d44',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality })
      .toBuffer();
    if (!best || Math.abs(data.length - 200_000) < Math.abs(best.length - 200_000)) best = data;
  }
  return best!;
}

async function put(store: ObjectStore, key: string, data: Buffer) {
  await store.put(key, Readable.from([data]), { contentType: 'image/jpeg' });
  await store.close();
}

async function benchService(
  label: string,
  env: Record<string, string>,
  dataDir: string,
  key: string,
  data: Buffer,
) {
  const port = await freePort();
  const server = startChild(
    'src/server.ts',
    [],
    {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      STORAGE_GC_INTERVAL_MINUTES: '0',
    },
    packageDir,
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/health`);
    await check(`${base}/img/${key}`, data);
    const { result, peakMb } = await peakRss(server.pid!, () => load(base, [`/img/${key}`], opts));
    console.log(
      `${label}: ${result.rps.toFixed(0)} req/s p99 ${result.p99} ms, peak RSS ${peakMb.toFixed(0)} MB`,
    );
    return { ...result, peakMb };
  } finally {
    await stopChild(server);
  }
}

async function benchBaseline(file: string, data: Buffer): Promise<LoadResult> {
  const port = await freePort();
  const server = startChild('bench/images-baseline-server.ts', [file, String(port)], {}, packageDir);
  try {
    await new Promise((r) => server.once('message', r));
    await check(`http://127.0.0.1:${port}/img`, data);
    const result = await load(`http://127.0.0.1:${port}`, ['/img'], opts);
    console.log(`baseline: ${result.rps.toFixed(0)} req/s p99 ${result.p99} ms`);
    return result;
  } finally {
    await stopChild(server);
  }
}

/** Every contestant must serve exactly the same bytes. */
async function check(url: string, data: Buffer) {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200 || !body.equals(data))
    throw new Error(`${url}: ${res.status}, not the benchmark file`);
}

async function main() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'plant-bench-images-'));
  let s3: ReturnType<typeof startChild> | undefined;
  try {
    const data = await photo();
    const file = path.join(work, 'photo.jpg');
    await writeFile(file, data);
    const key = `species/${randomUUID()}/${randomUUID()}.jpg`;

    const fsDir = path.join(work, 'fs');
    await put(new FilesystemStore(path.join(fsDir, 'images')), key, data);

    s3 = startChild('bench/images-s3-server.ts', [path.join(work, 's3'), BUCKET], {}, packageDir);
    const { port: s3Port } = await new Promise<{ port: number }>((r) => s3!.once('message', r as never));
    const s3Env = {
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    await put(
      new S3Store({
        endpoint: s3Env.S3_ENDPOINT,
        bucket: BUCKET,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      }),
      key,
      data,
    );

    const baseline = await benchBaseline(file, data);
    const filesystem = await benchService('filesystem', {}, fsDir, key, data);
    const onS3 = await benchService('s3', s3Env, path.join(work, 's3-service'), key, data);

    const ratio = (r: LoadResult) => `${((100 * r.rps) / baseline.rps).toFixed(0)} %`;
    const mbps = (r: LoadResult) => ((r.rps * data.length) / 1e6).toFixed(0);
    const row = (name: string, r: LoadResult, of: string) =>
      `| ${name} | ${r.rps.toFixed(0)} | ${mbps(r)} | ${r.p50} | ${r.p99} | ${of} | ${r.errors + r.non2xx} |`;
    const met = filesystem.rps >= TARGET * baseline.rps;
    const body = `
## Images under /img — \`npm run bench:images\`

Run on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}; autocannon
(${connections} connections, ${seconds} s after a 2 s warm-up) on the same machine, each server in its own
process, \`LOG_LEVEL=warn\`. Every request is \`GET /img/{key}\` of the same ${(data.length / 1000).toFixed(0)} KB JPEG
(checked byte for byte before each run). The baseline is a bare \`node:http\` server streaming that file
from disk per request (\`fs.createReadStream(file).pipe(res)\`), measured in the same run. The S3 backend
reads from s3rver on 127.0.0.1, itself in another process on the same 2 cores, so it measures the
service and a slow local S3 together.

| server | req/s | MB/s | p50 ms | p99 ms | of baseline | errors |
|---|---|---|---|---|---|---|
${row('bare node:http (baseline)', baseline, '100 %')}
${row('service, filesystem backend', filesystem, ratio(filesystem))}
${row('service, S3 backend (s3rver)', onS3, ratio(onS3))}

Peak RSS of the service under this load: filesystem ${filesystem.peakMb.toFixed(0)} MB, S3 ${onS3.peakMb.toFixed(0)} MB.

Target: filesystem backend ≥ ${TARGET * 100} % of the baseline — ${ratio(filesystem)}: ${met ? 'met' : '**missed**'}.
`;
    await writeSection(resultsFile, 'bench:images', body);
    console.log(`results written to ${resultsFile}`);
  } finally {
    if (s3) await stopChild(s3);
    await rm(work, { recursive: true, force: true });
  }
}

await main();
