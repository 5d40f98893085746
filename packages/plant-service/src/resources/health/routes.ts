/**
 * Probes. `/health` is liveness: the process answers and reaches its database. `/ready` is
 * readiness: the database answers and every committed migration is applied, so a new instance
 * gets traffic only once its schema is current.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Database } from '../../db/client.js';
import { pendingMigrations } from '../../db/migrate.js';

const Health = Type.Object({
  status: Type.String({ enum: ['ok', 'error'] }),
  error: Type.Optional(Type.String({ examples: ['database unreachable'] })),
});

export const healthRoutes =
  (database: Database): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          operationId: 'getHealth',
          tags: ['health'],
          summary: 'Liveness probe',
          description:
            '`{"status":"ok"}` when the service and its database answer; 503 otherwise. For a liveness ' +
            'check (restart when failing); route traffic by `/ready`.',
          response: { 200: Health, 503: Health },
        },
      },
      async (request, reply) => {
        try {
          await database.db.execute(sql`select 1`);
          return { status: 'ok' };
        } catch (error) {
          request.log.error({ err: error }, 'health check: database unreachable');
          return reply.code(503).send({ status: 'error', error: 'database unreachable' });
        }
      },
    );

    app.get(
      '/ready',
      {
        schema: {
          operationId: 'getReady',
          tags: ['health'],
          summary: 'Readiness probe',
          description:
            '`{"status":"ok"}` only when the database answers and every migration of this version is ' +
            'applied; 503 `{"status":"error","error":...}` otherwise. For load balancers and orchestrators ' +
            '(send traffic only when ready).',
          response: { 200: Health, 503: Health },
        },
      },
      async (request, reply) => {
        let pending: number;
        try {
          pending = await pendingMigrations(database);
        } catch (error) {
          request.log.warn({ err: error }, 'readiness check: database unreachable');
          return reply.code(503).send({ status: 'error', error: 'database unreachable' });
        }
        if (pending > 0) {
          return reply
            .code(503)
            .send({ status: 'error', error: `${pending} database migration(s) not applied` });
        }
        return { status: 'ok' };
      },
    );
  };
