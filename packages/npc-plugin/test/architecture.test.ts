import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './helpers/npc-process.js';

/** Issue 6: the core never imports mineflayer; only the Minecraft adapter folder touches the game. */
const GAME_PACKAGES =
  /^(mineflayer|mineflayer-pathfinder|flying-squid|minecraft-protocol|minecraft-data|prismarine-[a-z-]+|vec3)(\/|$)/;
const ADAPTER = 'src/adapters/minecraft/';
/** Composition roots may wire the adapter in, but only through the adapter's own modules. */
const WIRING = ['src/app.ts', 'src/demo/main.ts'];

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? sources(join(dir, entry.name)) : [join(dir, entry.name)])),
  );
  return files.flat().filter((file) => file.endsWith('.ts'));
}

function imports(text: string): string[] {
  return [
    ...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => (match[1] ?? match[2])!);
}

describe('architecture', () => {
  it('keeps game libraries inside the Minecraft adapter folder', async () => {
    const offenders: string[] = [];
    for (const file of await sources(join(packageRoot, 'src'))) {
      const path = relative(packageRoot, file);
      if (path.startsWith(ADAPTER)) continue;
      for (const specifier of imports(await readFile(file, 'utf8'))) {
        if (GAME_PACKAGES.test(specifier)) offenders.push(`${path} imports ${specifier}`);
        if (specifier.includes('adapters/') && !WIRING.includes(path))
          offenders.push(`${path} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('finds imports the way the check above relies on', () => {
    expect(imports('import mineflayer from \'mineflayer\';\nimport type { Bot } from "mineflayer";')).toEqual(
      ['mineflayer', 'mineflayer'],
    );
    expect(GAME_PACKAGES.test('prismarine-entity')).toBe(true);
    expect(GAME_PACKAGES.test('fastify')).toBe(false);
  });
});
