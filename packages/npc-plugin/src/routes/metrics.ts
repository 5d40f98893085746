import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { PrometheusMetrics } from '../metrics.js';
import { commonErrors } from './schemas.js';

export const metricsRoute =
  (metrics: PrometheusMetrics, permission: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/metrics',
      {
        config: { permission },
        schema: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics',
          description:
            'Prometheus text format: npc_replies_total{kind}, npc_gateway_request_duration_seconds{outcome}, ' +
            'npc_gateway_errors_total{kind}, npc_llm_tokens_total, npc_tool_calls_total{tool,outcome}, ' +
            'npc_reconnects_total, npc_chat_lines_dropped_total, npc_http_requests_total{endpoint,method,status} and the prom-client defaults prefixed npc_ (npc_process_*, npc_nodejs_*).',
          tags: ['operations'],
          security: [{ basic: [] }],
          response: {
            200: {
              description: 'Prometheus text exposition format 0.0.4',
              content: { 'text/plain': { schema: Type.String() } },
            },
            ...commonErrors,
          },
        },
      },
      async (_request, reply) =>
        reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
    );
  };
