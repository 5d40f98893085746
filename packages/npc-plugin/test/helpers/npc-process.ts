import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fillDescriptorVersion } from '../../src/descriptor.js';
import { contractViolation } from './contract.js';
import { VERSION } from './versions.js';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Builds the descriptor as `npm run build` does, into a temporary file. */
export async function builtDescriptor(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const dir = await mkdtemp(join(tmpdir(), 'npc-descriptor-'));
  const file = join(dir, 'plugin.json');
  await writeFile(
    file,
    fillDescriptorVersion(await readFile(join(packageRoot, 'plugin.json'), 'utf8'), pkg.version),
  );
  return file;
}

export interface NpcProcess {
  readonly url: string;
  readonly pid: number;
  readonly logs: Record<string, unknown>[];
  /** Current resident set size in MB (VmRSS). */
  rssMb(): number;
  /** Peak resident set size in MB since start (VmHWM). */
  peakRssMb(): number;
  stop(): Promise<number | null>;
}

/**
 * Runs `src/main.ts` (what `npm run npc` runs) as its own process, so its memory can be measured
 * apart from the test's Minecraft server and player bots. Resolves once its web server listens.
 */
/** The node flags of `npm run start` (package.json), so the tests measure the NPC as it really runs. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'src/main.ts') throw new Error('unexpected start script');
  return words.slice(1, -1);
}

export async function startNpcProcess(env: Record<string, string>): Promise<NpcProcess> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(LLM_|NPC_|MC_)/.test(key)),
  ) as Record<string, string>;
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), 'src/main.ts'], {
    cwd: packageRoot,
    env: { ...clean, NPC_HTTP_PORT: '0', LOG_LEVEL: 'info', MC_VERSION: VERSION, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test worker that dies must not leave the NPC running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`NPC did not start: ${stderr}`)), 45_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`NPC exited with ${code}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (typeof entry.url === 'string' && String(entry.msg).includes('listening')) {
          clearTimeout(timer);
          resolve(entry.url.replace(/\/$/, ''));
        }
      } catch {
        logs.push({ raw: line });
      }
    });
  });
  const status = (field: 'VmRSS' | 'VmHWM') => {
    const text = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  };
  return {
    url,
    pid: child.pid!,
    logs,
    rssMb: () => status('VmRSS'),
    peakRssMb: () => status('VmHWM'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** A small JSON client for the NPC's HTTP interface. */
export function httpClient(base: string, authorization: string) {
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const violation = contractViolation({
      method,
      url: new URL(`${base}${path}`).pathname,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: text,
    });
    if (violation) throw new Error(`OpenAPI contract: ${method} ${path} → ${response.status}: ${violation}`);
    return { status: response.status, body: JSON.parse(text) as T };
  };
}
