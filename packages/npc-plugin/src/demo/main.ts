/**
 * `npm run npc:demo`: a local flying-squid server (in memory,
 * superflat) on 127.0.0.1, the NPC and its web server, and a demo account printed once, so the
 * README's curl commands work at once and a Minecraft 1.20.4 client can join.
 */
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startLocalServer } from '../adapters/minecraft/local-server/local-server.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { loadDescriptor } from '../descriptor.js';
import { ConfigError } from '../errors.js';
import { createAccount, loadAccounts } from '../web-server/accounts.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function demo(): Promise<void> {
  const base = loadConfig();
  const logger = pino({ level: base.logLevel });
  const descriptor = await loadDescriptor(join(packageRoot, 'dist', 'plugin.json'));
  const server = await startLocalServer({ port: base.minecraft.port, version: base.minecraft.version });
  const accountsDir = join(packageRoot, 'data-local');
  const accountsFile = join(accountsDir, 'demo-accounts.json');
  await mkdir(accountsDir, { recursive: true });
  await rm(accountsFile, { force: true });
  const password = await createAccount(accountsFile, {
    username: 'demo',
    groups: [],
    permissions: [`${descriptor.id}.web.*`],
  });
  const config = loadConfig({
    ...process.env,
    MC_HOST: '127.0.0.1',
    MC_PORT: String(server.port),
    NPC_ACCOUNTS_FILE: accountsFile,
  });
  const app = await buildApp({ config, descriptor, accounts: await loadAccounts(accountsFile), logger });
  const url = `${await app.web.listen()}/${descriptor.id}`;
  app.npc.start();

  const auth = `demo:${password}`;
  const lines = [
    '',
    `Minecraft ${config.minecraft.version} server (flying-squid, superflat, offline mode): 127.0.0.1:${server.port}`,
    `NPC "${config.minecraft.username}" web server: ${url}/   (OpenAPI: ${url}/openapi.yaml)`,
    `Demo account (shown once): user "demo", password "${password}"`,
    config.llm.baseUrl
      ? `LLM gateway: ${config.llm.baseUrl} (model ${config.llm.model})`
      : 'LLM gateway: none (LLM_BASE_URL is not set) - OFFLINE: the NPC answers chat with a labelled offline line.',
    '',
    'Try:',
    `  curl -u ${auth} ${url}/status`,
    `  curl -u ${auth} -X POST ${url}/chat -H 'content-type: application/json' -d '{"message":"Hello!"}'`,
    `  curl -u ${auth} -X POST ${url}/move -H 'content-type: application/json' -d '{"x":8,"y":5,"z":8}'`,
    `  curl -u ${auth} -X POST ${url}/emote -H 'content-type: application/json' -d '{"name":"wave"}'`,
    `  curl -u ${auth} '${url}/world?radius=16'`,
    `  curl -N -u ${auth} ${url}/events`,
    '',
    'Ctrl-C stops everything.',
  ];
  console.log(lines.join('\n'));

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    app
      .close()
      .then(() => server.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

demo().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
