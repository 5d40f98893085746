import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { importSpecifiers, sourceFiles } from '@plants/common/source-imports';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './helpers/npc-process.js';

/** The core never imports mineflayer; only the Minecraft adapter folder touches the game. */
const GAME_PACKAGES =
  /^(mineflayer|mineflayer-pathfinder|flying-squid|minecraft-protocol|minecraft-data|prismarine-[a-z-]+|vec3)(\/|$)/;
const ADAPTER = 'src/adapters/minecraft/';
/** Composition roots may wire the adapter in, but only through the adapter's own modules. */
const WIRING = ['src/app.ts', 'src/demo/main.ts'];
/**
 * The core and the shared helpers know nothing of HTTP: they throw catalogue errors that carry a code,
 * and only the web server and the routes turn codes into statuses.
 */
const TRANSPORT_FREE = ['src/core/', 'src/shared/'];
const HTTP = /^(fastify|@fastify\/.*|@plants\/common\/http-errors)$|(^|\/)(web-server|routes)\//;

describe('architecture', () => {
  it('keeps game libraries inside the Minecraft adapter folder', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(packageRoot, 'src'))) {
      const path = relative(packageRoot, file);
      if (path.startsWith(ADAPTER)) continue;
      for (const specifier of importSpecifiers(await readFile(file, 'utf8'))) {
        if (GAME_PACKAGES.test(specifier)) offenders.push(`${path} imports ${specifier}`);
        if (specifier.includes('adapters/') && !WIRING.includes(path))
          offenders.push(`${path} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps HTTP out of the core: no web server, routes or status mapping', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(join(packageRoot, 'src'))) {
      const path = relative(packageRoot, file);
      if (!TRANSPORT_FREE.some((folder) => path.startsWith(folder))) continue;
      for (const specifier of importSpecifiers(await readFile(file, 'utf8'))) {
        if (HTTP.test(specifier)) offenders.push(`${path} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('finds imports the way the checks above rely on', () => {
    expect(
      importSpecifiers('import mineflayer from \'mineflayer\';\nimport type { Bot } from "mineflayer";'),
    ).toEqual(['mineflayer', 'mineflayer']);
    expect(GAME_PACKAGES.test('prismarine-entity')).toBe(true);
    expect(GAME_PACKAGES.test('fastify')).toBe(false);
    expect(
      ['fastify', '@plants/common/http-errors', '../web-server/accounts.js', '../../routes/x.js'].filter(
        (s) => HTTP.test(s),
      ),
    ).toHaveLength(4);
    expect(['@plants/common/errors', '../errors.js', './game.js'].filter((s) => HTTP.test(s))).toEqual([]);
  });
});
