import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { GatewayErrorCode } from './core/gateway/llm-gateway.js';
import type { Telemetry } from './core/telemetry.js';
import type { ToolOutcome } from './core/tools/npc-tools.js';
import { TOOL_NAMES } from './core/tools/tool-schemas.js';

/**
 * The Prometheus metrics of one NPC process (its own registry, so tests can build several apps):
 * replies, gateway latency and errors by kind, tokens, tool calls, reconnects, HTTP requests, plus the
 * process defaults (memory, CPU, event-loop lag).
 */
export class PrometheusMetrics implements Telemetry {
  readonly registry = new Registry();
  readonly #replies: Counter<'kind'>;
  readonly #gatewayLatency: Histogram<'outcome'>;
  readonly #gatewayErrors: Counter<'kind'>;
  readonly #tokens: Counter;
  readonly #toolCalls: Counter<'tool' | 'outcome'>;
  readonly #reconnects: Counter;
  readonly #chatDropped: Counter;
  readonly #http: Counter<'endpoint' | 'method' | 'status'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'npc_' });
    this.#replies = new Counter({
      name: 'npc_replies_total',
      help: 'Replies said to players, by kind (answer, fallback, budget, offline)',
      labelNames: ['kind'],
      registers,
    });
    this.#gatewayLatency = new Histogram({
      name: 'npc_gateway_request_duration_seconds',
      help: 'Gateway requests (retries included), by outcome',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60],
      registers,
    });
    this.#gatewayErrors = new Counter({
      name: 'npc_gateway_errors_total',
      help: 'Failed gateway requests, by kind (timeout, http_status, network, bad_response, too_large)',
      labelNames: ['kind'],
      registers,
    });
    this.#tokens = new Counter({
      name: 'npc_llm_tokens_total',
      help: 'Tokens used, as the gateway reported them in usage.total_tokens',
      registers,
    });
    this.#toolCalls = new Counter({
      name: 'npc_tool_calls_total',
      help: 'Tool calls the model made, by tool and outcome (ok, refused, failed)',
      labelNames: ['tool', 'outcome'],
      registers,
    });
    this.#reconnects = new Counter({
      name: 'npc_reconnects_total',
      help: 'Times the NPC joined the game again after losing the connection',
      registers,
    });
    this.#chatDropped = new Counter({
      name: 'npc_chat_lines_dropped_total',
      help: 'Chat lines dropped because the chat backlog was full (the rate governor could not say them in time)',
      registers,
    });
    this.#http = new Counter({
      name: 'npc_http_requests_total',
      help: 'HTTP requests, by route, method and status',
      labelNames: ['endpoint', 'method', 'status'],
      registers,
    });
  }

  reply(kind: 'answer' | 'fallback' | 'budget' | 'offline'): void {
    this.#replies.inc({ kind });
  }

  gatewayRequest(seconds: number, outcome: 'ok' | GatewayErrorCode): void {
    this.#gatewayLatency.observe({ outcome }, seconds);
    if (outcome !== 'ok' && outcome !== 'aborted') this.#gatewayErrors.inc({ kind: outcome });
  }

  tokens(count: number): void {
    this.#tokens.inc(count);
  }

  toolCall(name: string, outcome: ToolOutcome): void {
    // Tool names come from the model: any name that is not a tool is counted under one label.
    const tool = (TOOL_NAMES as readonly string[]).includes(name) ? name : 'unknown';
    this.#toolCalls.inc({ tool, outcome });
  }

  reconnect(): void {
    this.#reconnects.inc();
  }

  chatLinesDropped(count: number): void {
    this.#chatDropped.inc(count);
  }

  /** `endpoint` is the route pattern, never the raw URL, so the label set stays small. */
  httpRequest(endpoint: string, method: string, status: number): void {
    this.#http.inc({ endpoint, method, status: String(status) });
  }
}
