import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { commonErrors, ErrorBody, WorldQuery, WorldReply } from './schemas.js';

export const worldRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    // A query string is text; only a plain integer is read as the radius (the schema judges the rest).
    app.addHook('preValidation', async (request) => {
      const query = request.query as Record<string, unknown>;
      if (typeof query.radius === 'string' && /^\d{1,9}$/.test(query.radius))
        query.radius = Number(query.radius);
    });
    app.get(
      '/world',
      {
        config: { permission },
        schema: {
          operationId: 'getWorld',
          summary: 'Perception for an external AI',
          description:
            'The NPC itself, players and entities within radius (default 16, capped at NPC_WORLD_RADIUS_MAX = 64; ' +
            'the answer says which radius was used), counts of the blocks within 4 blocks, the block under and in ' +
            'front, time of day, weather, dimension, biome and the last 20 chat lines heard.',
          tags: ['npc'],
          security: [{ basic: [] }],
          querystring: WorldQuery,
          response: {
            200: WorldReply,
            400: ErrorBody,
            ...commonErrors,
            409: { ...ErrorBody, description: 'The NPC is not in the world' },
          },
        },
      },
      async (request) => npc.world(request.query.radius ?? 16),
    );
  };
