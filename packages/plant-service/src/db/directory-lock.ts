/**
 * One process at a time opens an embedded database directory. PGlite keeps its pages in memory
 * and writes them back on its own schedule, so a second process on the same directory would work
 * on a stale copy and its writes would be lost (or would overwrite the first one's). The holder
 * writes its pid into `<dir>.lock` (beside the directory, so the directory stays PGlite's alone);
 * a lock whose process no longer runs (a crash, kill -9) is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';

export class DirectoryLocked extends Error {
  constructor(
    readonly dir: string,
    readonly holder: number,
  ) {
    super(
      `the embedded database ${dir} is in use by process ${holder}; stop that process (the running ` +
        'service, or another command) and try again, or set DATABASE_URL to use PostgreSQL, ' +
        'which several processes can share',
    );
    this.name = 'DirectoryLocked';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dir` for this process; the returned function releases it. */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return async () => {
        await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) throw new DirectoryLocked(dir, holder);
    // A stale lock (its process is gone, or the file is empty from a crash mid-write).
    await rm(file, { force: true });
  }
  throw new Error(`could not take the lock ${file}`);
}
