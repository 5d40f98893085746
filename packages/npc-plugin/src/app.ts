import type { Logger } from 'pino';
import { MineflayerGame } from './adapters/minecraft/mineflayer-game.js';
import type { Config } from './config.js';
import type { GameAdapter } from './core/game.js';
import type { LlmGateway } from './core/gateway/llm-gateway.js';
import { OfflineGateway, OpenAiGateway } from './core/gateway/openai-gateway.js';
import { longestCommandMs, Npc } from './core/npc.js';
import type { PluginDescriptor } from './descriptor.js';
import { PrometheusMetrics } from './metrics.js';
import { npcRoutes } from './routes/index.js';
import type { AccountStore } from './web-server/accounts.js';
import { WebServer } from './web-server/web-server.js';

export interface NpcApp {
  readonly web: WebServer;
  readonly npc: Npc;
  readonly game: GameAdapter;
  readonly metrics: PrometheusMetrics;
  close(): Promise<void>;
}

export function gatewayFor(config: Config): LlmGateway {
  const { baseUrl, model, apiKey, timeoutMs, maxRetries, maxResponseBytes } = config.llm;
  return baseUrl
    ? new OpenAiGateway({ baseUrl, model, apiKey, timeoutMs, maxRetries, maxResponseBytes })
    : new OfflineGateway(model);
}

/**
 * Builds the web server and the NPC plugin without listening (fastify/demo habit: app ≠ server), so
 * tests can `inject`. The plugin registers its routes with the web-server module under its id.
 */
export async function buildApp(options: {
  config: Config;
  descriptor: PluginDescriptor;
  accounts: AccountStore;
  logger: Logger;
  game?: GameAdapter;
}): Promise<NpcApp> {
  const { config, descriptor, accounts, logger } = options;
  const game =
    options.game ??
    new MineflayerGame({
      host: config.minecraft.host,
      port: config.minecraft.port,
      version: config.minecraft.version,
      username: config.minecraft.username,
      auth: config.minecraft.auth,
      pickupItems: config.minecraft.pickupItems,
    });
  const metrics = new PrometheusMetrics();
  const npc = new Npc(
    game,
    gatewayFor(config),
    {
      pluginId: descriptor.id,
      version: descriptor.version,
      npcName: config.minecraft.username,
      ...config.npc,
    },
    logger.child({ module: 'npc' }),
    metrics,
  );
  const web = await WebServer.create({
    host: config.http.host,
    port: config.http.port,
    tls: config.http.tls,
    accounts,
    loginFailuresPerMinute: config.http.loginFailuresPerMinute,
    loginFailuresPerAddressPerMinute: config.http.loginFailuresPerAddressPerMinute,
    loginFailuresPerAccountPerMinute: config.http.loginFailuresPerAccountPerMinute,
    trustProxy: config.http.trustProxy,
    longestOperationMs: longestCommandMs(config.npc.connectTimeoutMs),
    logger,
    title: `${descriptor.name} HTTP interface`,
    version: descriptor.version,
    description: `${descriptor.description} Every route except /health needs HTTP Basic credentials with the permission node ${descriptor.id}.web.<endpoint> (or a wildcard), unless the accounts file's anonymous group grants it. Errors are {"error": "..."}.`,
  });
  web.app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode);
  });
  await web.register({ id: descriptor.id, routes: npcRoutes(npc, metrics, descriptor.id) });
  return {
    web,
    npc,
    game,
    metrics,
    close: async () => {
      await web.close();
      await npc.close();
    },
  };
}
