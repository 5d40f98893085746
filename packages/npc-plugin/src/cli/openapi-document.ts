import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { fillDescriptorVersion, validateDescriptor } from '../descriptor.js';
import { AccountStore } from '../web-server/accounts.js';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The OpenAPI document as the running server serves it, built without connecting anywhere. */
export async function openapiDocument(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const source = await readFile(join(packageRoot, 'plugin.json'), 'utf8');
  const descriptor = validateDescriptor(
    JSON.parse(fillDescriptorVersion(source, pkg.version)),
    'plugin.json',
  );
  const app = await buildApp({
    config: loadConfig({}),
    descriptor,
    accounts: new AccountStore({ groups: {}, accounts: [] }),
    logger: pino({ level: 'silent' }),
  });
  try {
    await app.web.app.ready();
    return app.web.openapiYaml();
  } finally {
    await app.close();
  }
}
