/**
 * `npm run npc`: the NPC and its web server against the Minecraft server named by MC_HOST/MC_PORT.
 * Stops with a clear message on a bad configuration, descriptor or accounts file.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { loadDescriptor } from './descriptor.js';
import { ConfigError } from './errors.js';
import { loadAccounts } from './web-server/accounts.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function main(): Promise<void> {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let logger: pino.Logger;
  try {
    const config = loadConfig();
    logger = pino({ level: config.logLevel });
    const descriptor = await loadDescriptor(
      process.env.NPC_DESCRIPTOR ?? join(packageRoot, 'dist', 'plugin.json'),
    );
    const accounts = await loadAccounts(config.http.accountsFile);
    app = await buildApp({ config, descriptor, accounts, logger });
    const url = await app.web.listen();
    logger.info(
      {
        url: `${url}/${descriptor.id}/`,
        minecraft: `${config.minecraft.host}:${config.minecraft.port}`,
        llm: config.llm.baseUrl ?? 'offline',
      },
      `${descriptor.name} ${descriptor.version} listening`,
    );
    app.npc.start();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
