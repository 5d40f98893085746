import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Npc } from '../core/npc.js';
import { ChatBody, ChatReply, commonErrors, ErrorBody } from './schemas.js';
import { checkChatMessage } from './targets.js';

export const chatRoute =
  (npc: Npc, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/chat',
      {
        config: { permission },
        schema: {
          operationId: 'sayInChat',
          summary: 'Say something in public chat',
          description:
            'Up to 1000 characters, split at word boundaries into lines of the game chat limit (256) and said in ' +
            'order, through the same chat gate and rate governor as model replies (see the README). While idle the NPC ' +
            'shows the state "talking" until it is done; while moving it talks on the way. `lines` are the lines ' +
            'queued, as they will be said.',
          tags: ['npc'],
          security: [{ basic: [] }],
          body: ChatBody,
          response: {
            200: ChatReply,
            400: ErrorBody,
            ...commonErrors,
            429: {
              ...ErrorBody,
              description:
                'Too many failed logins from this address (Retry-After), or the chat backlog cannot take the whole ' +
                'message (nothing is queued)',
            },
            409: { ...ErrorBody, description: 'The NPC is not in the world' },
          },
        },
      },
      async (request) => {
        checkChatMessage(request.body.message);
        return npc.say(request.body.message);
      },
    );
  };
