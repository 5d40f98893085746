import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import flyingSquid from 'flying-squid';
import { describe, expect, it } from 'vitest';
import { MINEFLAYER_VERSIONS, unsupportedVersion } from '../../../src/adapters/minecraft/versions.js';
import { loadConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors.js';
import { writeAccounts } from '../../helpers/accounts.js';
import { buildTestApp } from '../../helpers/app.js';
import { packageRoot } from '../../helpers/npc-process.js';
import { BASE_VERSION, FLYING_SQUID_BROKEN, NEWEST_SHARED_VERSION } from '../../helpers/versions.js';

describe('MC_VERSION', () => {
  it('accepts every version mineflayer says it was tested with, current releases such as 26.1 included', () => {
    expect(MINEFLAYER_VERSIONS.tested).toContain('26.1');
    for (const version of [...MINEFLAYER_VERSIONS.tested, '1.20.4', '1.21.2', '1.21.4'])
      expect(unsupportedVersion(version), version).toBeNull();
    expect(loadConfig({ MC_VERSION: '26.1' }).minecraft.version).toBe('26.1');
  });

  it('refuses at start what mineflayer or the game data cannot play, naming the variable', async () => {
    expect(unsupportedVersion('1.7.10')).toMatch(/not supported by mineflayer \(1\.8\.8 to/);
    expect(unsupportedVersion('27.0')).toMatch(/not a Minecraft Java version/);
    const accounts = await writeAccounts([]);
    const error = await buildTestApp(accounts, { MC_VERSION: '27.0' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'MC_VERSION: "27.0" is not a Minecraft Java version the game data knows',
    ]);
  });

  it('matches the README: the range mineflayer supports and the versions the suite runs on', async () => {
    const readme = await readFile(join(packageRoot, 'README.md'), 'utf8');
    expect(readme).toContain(
      `accepts every version the pinned mineflayer supports, ${MINEFLAYER_VERSIONS.oldest} to ${MINEFLAYER_VERSIONS.latest}`,
    );
    expect(readme).toContain(`end-to-end suite runs on ${BASE_VERSION} and on ${NEWEST_SHARED_VERSION}`);
  });

  it('runs the second end-to-end pass on the newest version both libraries were tested with and flying-squid serves', () => {
    const squid = (flyingSquid as unknown as { testedVersions: string[] }).testedVersions;
    const shared = squid.filter((version) => MINEFLAYER_VERSIONS.tested.includes(version));
    // When flying-squid or mineflayer moves on, this fails: try the new newest version and update.
    expect(shared.slice(-3)).toEqual([NEWEST_SHARED_VERSION, ...FLYING_SQUID_BROKEN]);
  });
});
