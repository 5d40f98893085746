import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { commonErrors, StatusReply } from './schemas.js';

export const statusRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/status',
      {
        config: { permission },
        schema: {
          operationId: 'getStatus',
          summary: 'The NPC status',
          description:
            'Spawned or not, state, position, yaw/pitch, health, food, the current (or last) goal with its progress, ' +
            'the game connection (reconnect attempts while away), gateway health, uptime, plugin id and version.',
          tags: ['npc'],
          security: [{ basic: [] }],
          response: { 200: StatusReply, ...commonErrors },
        },
      },
      async () => npc.status(),
    );
  };
