import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryRelease } from '../../src/lib/memory-release.js';

const run = promisify(execFile);
const packageDir = new URL('../..', import.meta.url);

/** The words of npm start's command line: `node`, its flags, the entry point. */
const startWords = () =>
  (
    JSON.parse(readFileSync(new URL('package.json', packageDir), 'utf8')) as { scripts: { start: string } }
  ).scripts.start.split(/\s+/);

describe('memory release after index builds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs one memory-reducing collection once builds finishing together have settled', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const messages: string[] = [];
    const release = memoryRelease({ gc, settleMs: 2000, log: { info: (_obj, msg) => messages.push(msg) } });
    release.soon();
    vi.advanceTimersByTime(1500);
    release.soon();
    vi.advanceTimersByTime(1999);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'major', flavor: 'last-resort' });
    expect(messages).toEqual(['memory released after an index build']);
  });

  it('runs nothing once closed, and nothing without an exposed gc', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const log = { info: vi.fn() };
    const release = memoryRelease({ gc, settleMs: 10, log });
    release.soon();
    release.close();
    vi.advanceTimersByTime(100);
    expect(gc).not.toHaveBeenCalled();
    const without = memoryRelease({ gc: undefined, settleMs: 10, log });
    without.soon();
    vi.advanceTimersByTime(100);
    expect(log.info).not.toHaveBeenCalled();
  });

  it('gives a dropped heap back to the system in a process started with --expose-gc', async () => {
    // About 150 MB of small objects, dropped: without a collection that shrinks the heap, an idle
    // process keeps them resident.
    const script = `
      import { memoryRelease } from './src/lib/memory-release.ts';
      let garbage = Array.from({ length: 1_500_000 }, (_, i) => ({ i, text: 'record ' + i }));
      console.error('held', garbage.length);
      garbage = undefined;
      memoryRelease({ settleMs: 10, log: { info: (obj) => console.log(JSON.stringify(obj)) } }).soon();
      setTimeout(() => {}, 500);
    `;
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: packageDir },
    );
    const { rssBeforeMb, rssAfterMb } = JSON.parse(stdout) as { rssBeforeMb: number; rssAfterMb: number };
    expect(rssBeforeMb - rssAfterMb).toBeGreaterThan(50);
  });

  it('is what npm start asks for', () => {
    expect(startWords()).toContain('--expose-gc');
  });

  // Node refuses to start with a V8 option it does not know: a Node line that dropped one of
  // npm start's tuning flags would stop the service at start rather than ignore the flag.
  it('runs on this Node with every flag npm start passes', async () => {
    const [node, ...rest] = startWords();
    expect(node).toBe('node');
    const flags = rest.slice(0, -1);
    expect(flags.length).toBeGreaterThan(0);
    const { stdout } = await run(process.execPath, [...flags, '-e', "process.stdout.write('started')"]);
    expect(stdout).toBe('started');
  });
});
