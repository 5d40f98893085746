import type { FastifyPluginAsync } from 'fastify';
import type { Npc } from '../core/npc.js';
import { type Endpoint, permissionNode } from '../descriptor.js';
import type { PrometheusMetrics } from '../metrics.js';
import { chatRoute } from './chat.js';
import { emoteRoute } from './emote.js';
import { eventsRoute } from './events.js';
import { healthRoute } from './health.js';
import { lookRoute } from './look.js';
import { metricsRoute } from './metrics.js';
import { moveRoute } from './move.js';
import { spawnRoute } from './spawn.js';
import { statusRoute } from './status.js';
import { worldRoute } from './world.js';

/**
 * The NPC plugin's routes, each guarded by its node `<plugin_id>.web.<endpoint>`, plus the public
 * `/health`.
 */
export function npcRoutes(npc: Npc, metrics: PrometheusMetrics, pluginId: string): FastifyPluginAsync {
  const node = (endpoint: Endpoint) => permissionNode(pluginId, endpoint);
  return async (app) => {
    await app.register(spawnRoute(npc, node('spawn')));
    await app.register(moveRoute(npc, node('move')));
    await app.register(chatRoute(npc, node('chat')));
    await app.register(lookRoute(npc, node('look')));
    await app.register(emoteRoute(npc, node('emote')));
    await app.register(statusRoute(npc, node('status')));
    await app.register(worldRoute(npc, node('world')));
    await app.register(eventsRoute(npc.events, node('events')));
    await app.register(metricsRoute(metrics, node('metrics')));
    await app.register(healthRoute(npc));
  };
}
