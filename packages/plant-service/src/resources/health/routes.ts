import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Database } from '../../db/client.js';

const Health = Type.Object({ status: Type.String(), error: Type.Optional(Type.String()) });

export const healthRoutes =
  ({ db }: Database): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness probe',
          description: '`{"status":"ok"}` when the service and its database answer; 503 otherwise.',
          response: { 200: Health, 503: Health },
        },
      },
      async (request, reply) => {
        try {
          await db.execute(sql`select 1`);
          return { status: 'ok' };
        } catch (error) {
          request.log.error({ err: error }, 'health check: database unreachable');
          return reply.code(503).send({ status: 'error', error: 'database unreachable' });
        }
      },
    );
  };
