import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NpcApp } from '../../src/app.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';

describe('GET /npc/health and GET /npc/metrics', () => {
  let app: NpcApp;

  beforeAll(async () => {
    const accounts = await writeAccounts([
      { username: 'all', password: 'pw', permissions: ['npc.web.*'] },
      { username: 'status', password: 'pw', permissions: ['npc.web.status'] },
    ]);
    app = await buildTestApp(accounts);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers /health without credentials with the game connection state', async () => {
    const response = await app.web.app.inject({ method: 'GET', url: '/npc/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      connected: false,
      state: 'offline',
      uptime_s: expect.any(Number),
    });
  });

  it('guards /metrics with npc.web.metrics and serves the Prometheus text format', async () => {
    expect((await app.web.app.inject({ method: 'GET', url: '/npc/metrics' })).statusCode).toBe(401);
    const forbidden = await app.web.app.inject({
      method: 'GET',
      url: '/npc/metrics',
      headers: { authorization: basic('status', 'pw') },
    });
    expect(forbidden.statusCode).toBe(403);
    app.metrics.toolCall('follow_player', 'refused');
    app.metrics.toolCall('rm_rf', 'refused');
    app.metrics.gatewayRequest(0.3, 'timeout');
    app.metrics.tokens(42);
    app.metrics.reply('fallback');
    app.metrics.reconnect();
    const response = await app.web.app.inject({
      method: 'GET',
      url: '/npc/metrics',
      headers: { authorization: basic('all', 'pw') },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    expect(text).toContain('npc_tool_calls_total{tool="follow_player",outcome="refused"} 1');
    expect(text).toContain('npc_tool_calls_total{tool="unknown",outcome="refused"} 1');
    expect(text).toContain('npc_gateway_errors_total{kind="timeout"} 1');
    expect(text).toContain('npc_gateway_request_duration_seconds_bucket{le="0.5",outcome="timeout"} 1');
    expect(text).toContain('npc_llm_tokens_total 42');
    expect(text).toContain('npc_replies_total{kind="fallback"} 1');
    expect(text).toContain('npc_reconnects_total 1');
    expect(text).toContain('npc_http_requests_total{endpoint="/npc/health",method="GET",status="200"} 1');
    expect(text).toContain('npc_http_requests_total{endpoint="/npc/metrics",method="GET",status="403"} 1');
    expect(text).toContain('npc_process_resident_memory_bytes');
  });
});
