import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp, type NpcApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { fillDescriptorVersion, validateDescriptor } from '../../src/descriptor.js';
import { loadAccounts } from '../../src/web-server/accounts.js';
import { checkResponses } from './contract.js';
import { packageRoot } from './npc-process.js';
import { VERSION } from './versions.js';

/**
 * Builds the real app (web server, NPC plugin, Minecraft adapter) without listening and without
 * joining any game: HTTP behaviour that does not need the world is tested with `inject`. Every
 * response is checked against the OpenAPI document.
 */
export async function buildTestApp(accountsFile: string, env: Record<string, string> = {}): Promise<NpcApp> {
  const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const source = await readFile(join(packageRoot, 'plugin.json'), 'utf8');
  const descriptor = validateDescriptor(
    JSON.parse(fillDescriptorVersion(source, pkg.version)),
    'plugin.json',
  );
  const config = loadConfig({
    NPC_ACCOUNTS_FILE: accountsFile,
    NPC_HTTP_PORT: '0',
    NPC_AUTO_SPAWN: 'false',
    MC_VERSION: VERSION,
    ...env,
  });
  const app = await buildApp({
    config,
    descriptor,
    accounts: await loadAccounts(accountsFile),
    logger: pino({ level: 'silent' }),
  });
  checkResponses(app.web.app);
  await app.web.app.ready();
  return app;
}
