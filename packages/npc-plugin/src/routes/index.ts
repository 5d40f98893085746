import type { FastifyPluginAsync } from 'fastify';
import type { Npc } from '../core/npc.js';
import { type Endpoint, permissionNode } from '../descriptor.js';
import { chatRoute } from './chat.js';
import { emoteRoute } from './emote.js';
import { lookRoute } from './look.js';
import { moveRoute } from './move.js';
import { spawnRoute } from './spawn.js';
import { statusRoute } from './status.js';
import { worldRoute } from './world.js';

const ROUTES = {
  spawn: spawnRoute,
  move: moveRoute,
  chat: chatRoute,
  look: lookRoute,
  emote: emoteRoute,
  status: statusRoute,
  world: worldRoute,
} as const satisfies Record<Endpoint, unknown>;

/** The NPC plugin's seven routes, each guarded by its node `<plugin_id>.web.<endpoint>` (spec §4, §5). */
export function npcRoutes(npc: Npc, pluginId: string): FastifyPluginAsync {
  return async (app) => {
    for (const [endpoint, route] of Object.entries(ROUTES) as [Endpoint, (typeof ROUTES)[Endpoint]][]) {
      await app.register(route(npc, permissionNode(pluginId, endpoint)));
    }
  };
}
