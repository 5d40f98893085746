import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { commonErrors, ErrorBody, LookBody, LookReply } from './schemas.js';
import { lookTarget } from './targets.js';

export const lookRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/look',
      {
        config: { permission },
        schema: {
          operationId: 'lookAt',
          summary: 'Turn the head toward a point, a player, an entity, or to yaw/pitch',
          description:
            'Yaw and pitch are in degrees as the game shows them (yaw 0 = south, 90 = west; pitch 90 = down). ' +
            'Refused with 409 while moving, following or emoting, because the movement steers the head.' +
            " Like every operator command, it holds the NPC against players' tool calls for NPC_OPERATOR_HOLD_MS (60 s).",
          tags: ['npc'],
          security: [{ basic: [] }],
          body: LookBody,
          response: {
            200: LookReply,
            400: ErrorBody,
            ...commonErrors,
            404: { ...ErrorBody, description: 'The player or entity is not in view' },
            409: ErrorBody,
          },
        },
      },
      async (request) => npc.look(lookTarget(request.body)),
    );
  };
