/**
 * Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
 * keep their own counts: requests by route template, method and status with durations, logins by
 * outcome, response-cache hits, misses and bytes, image resizes, database statement durations (both
 * backends), the PostgreSQL pool, and the process (CPU, memory, event loop, GC). Served as text at GET /metrics unless METRICS_ENABLED=false.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { bearerToken } from '../auth/guard.js';
import type { Database } from '../db/client.js';
import { Unauthorized } from '../errors.js';
import { ErrorBody, Ref } from '../schema/types.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

export type AppMetrics = ReturnType<typeof createMetrics>;

const PREFIX = 'plants_';
const LOGIN_CALLBACK = '/auth/oidc/callback';

export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from request to response, by route template, method and status.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const logins = new Counter({
    name: `${PREFIX}logins_total`,
    help: 'Finished OIDC logins by outcome: success, invalid (400), refused (401), disabled (403), unavailable (503), rate_limited (429).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: `${PREFIX}response_cache_requests_total`,
    help: 'Cacheable GET requests by result: hit (served from memory) or miss.',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  let readCacheBytes = () => 0;
  new Gauge({
    name: `${PREFIX}response_cache_bytes`,
    help: 'Bytes of the response bodies held by the response cache (at most RESPONSE_CACHE_MB).',
    registers: [registry],
    collect() {
      this.set(readCacheBytes());
    },
  });
  const resizes = new Counter({
    name: `${PREFIX}image_resizes_total`,
    help: 'Resized image copies made on first request, by outcome (ok, failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const statements = new Histogram({
    name: `${PREFIX}db_statement_duration_seconds`,
    help: 'Time from sending a database statement to its result, on either backend (on PGlite including the wait behind other statements).',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const pool = database.poolStats;
  if (pool) {
    type PoolStats = ReturnType<NonNullable<Database['poolStats']>>;
    const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
      new Gauge({
        name: `${PREFIX}db_pool_${name}`,
        help,
        registers: [registry],
        collect() {
          this.set(read(pool()));
        },
      });
    gauge('connections', 'PostgreSQL connections open in the pool.', (s) => s.total);
    gauge('idle', 'Open PostgreSQL connections not in use.', (s) => s.idle);
    gauge('waiting', 'Queries waiting for a free connection.', (s) => s.waiting);
  }

  return {
    registry,
    cache: {
      hit: () => cacheLookups.inc({ result: 'hit' }),
      miss: () => cacheLookups.inc({ result: 'miss' }),
      /** Where the cache's current size is read whenever metrics are collected. */
      size(read: () => number) {
        readCacheBytes = read;
      },
    },
    resize: (outcome: 'ok' | 'failed') => resizes.inc({ outcome }),
    /** Counts every response (its route template, or `unmatched` for a 404 without a route). */
    install(app: FastifyInstance) {
      const unlisten = database.statements?.listen((seconds) => statements.observe(seconds));
      if (unlisten) app.addHook('onClose', async () => void unlisten());
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        const labels = { method: request.method, route, status_code: String(reply.statusCode) };
        requests.inc(labels);
        duration.observe(labels, reply.elapsedTime / 1000);
        if (route === LOGIN_CALLBACK) logins.inc({ outcome: loginOutcome(reply.statusCode) });
      });
    },
    /**
     * GET /metrics; registered after the OpenAPI plugin, so the document lists it. With a token,
     * only a request bearing it is answered (compared as SHA-256 digests, in constant time).
     */
    serve(app: FastifyInstance, token: string | undefined) {
      const expected = token === undefined ? undefined : sha256(token);
      app.get(
        '/metrics',
        {
          onRequest: async (request, reply) => {
            if (!expected) return;
            const sent = bearerToken(request);
            if (sent !== undefined && timingSafeEqual(sha256(sent), expected)) return;
            reply.header('www-authenticate', 'Bearer realm="metrics"');
            throw new Unauthorized('metrics need Authorization: Bearer <METRICS_TOKEN>');
          },
          schema: {
            operationId: 'getMetrics',
            tags: ['health'],
            summary: 'Prometheus metrics',
            description:
              'Prometheus text format (version 0.0.4): requests, durations, logins, response cache, image ' +
              'resizes, database statement durations (both backends), the PostgreSQL pool and the ' +
              'process. Public on the service port ' +
              'unless METRICS_TOKEN is set: then only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). ' +
              'METRICS_ENABLED=false removes the route.',
            response: {
              200: {
                description: 'Metrics in the Prometheus text format.',
                content: { 'text/plain': { schema: { type: 'string' } } },
              },
              401: {
                ...Ref(ErrorBody),
                description: 'METRICS_TOKEN is set and the request does not bear it.',
              },
            },
          },
        },
        async (_request, reply) => {
          reply.header('cache-control', 'no-store').type(registry.contentType);
          return registry.metrics();
        },
      );
    },
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function loginOutcome(status: number): string {
  if (status < 400) return 'success';
  if (status === 400) return 'invalid';
  if (status === 401) return 'refused';
  if (status === 403) return 'disabled';
  if (status === 429) return 'rate_limited';
  return 'unavailable';
}
