import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

describe('package.json', () => {
  it('keeps build tools out of the production dependencies', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    for (const tool of ['tsx', 'typescript', 'esbuild']) {
      expect(Object.keys(manifest.dependencies), tool).not.toContain(tool);
    }
    expect(Object.keys(manifest.devDependencies)).toEqual(expect.arrayContaining(['tsx', 'typescript']));
  });
});
