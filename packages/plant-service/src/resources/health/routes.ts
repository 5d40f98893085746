/**
 * Probes. `/health` is liveness: the process answers (200 even while the database is away, which
 * it reports: restarting the service would not bring the database back). `/ready` is readiness:
 * the database answers and every committed migration is applied, so an instance gets traffic
 * only while it can serve it. Neither logs a failure per probe: the database going away and
 * coming back is logged once each (db/reachability.ts).
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

const Liveness = Type.Object({
  status: Type.String({ enum: ['ok'] }),
  database: Type.String({
    enum: ['reachable', 'unreachable'],
    description: 'Whether the database answered just now.',
  }),
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
            'Answers 200 while the process runs, with whether the database answered just now. For a ' +
            'liveness check (restart when failing); route traffic by `/ready`, which is 503 while the ' +
            'database is unreachable.',
          response: { 200: Liveness },
        },
      },
      async () => {
        try {
          await database.db.execute(sql`select 1`);
          return { status: 'ok', database: 'reachable' };
        } catch {
          return { status: 'ok', database: 'unreachable' };
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
      async (_request, reply) => {
        let pending: number;
        try {
          pending = await pendingMigrations(database);
        } catch {
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
