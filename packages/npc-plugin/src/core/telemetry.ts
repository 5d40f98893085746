import type { GatewayErrorCode } from './gateway/llm-gateway.js';
import type { ToolOutcome } from './tools/npc-tools.js';

/** What the core reports for metrics; the web server's Prometheus registry implements it. */
export interface Telemetry {
  /** One reply said to a player (the fallback and budget lines count too). */
  reply(kind: 'answer' | 'fallback' | 'budget' | 'offline'): void;
  /** One gateway request, retries included, and how it ended. */
  gatewayRequest(seconds: number, outcome: 'ok' | GatewayErrorCode): void;
  tokens(count: number): void;
  toolCall(name: string, outcome: ToolOutcome): void;
  /** The NPC joined the game again after losing the connection. */
  reconnect(): void;
  /** Chat lines dropped because the chat backlog was full. */
  chatLinesDropped(count: number): void;
}

export const NO_TELEMETRY: Telemetry = {
  reply: () => undefined,
  gatewayRequest: () => undefined,
  tokens: () => undefined,
  toolCall: () => undefined,
  reconnect: () => undefined,
  chatLinesDropped: () => undefined,
};
