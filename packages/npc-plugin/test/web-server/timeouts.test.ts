import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { httpTimeouts } from '../../src/web-server/web-server.js';

import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';

/** A game server that accepts TCP connections and never says a word. */
async function blackHole(): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('POST /spawn over a real socket against a server that never answers', () => {
  let hole: Awaited<ReturnType<typeof blackHole>>;
  let accounts: string;
  beforeAll(async () => {
    hole = await blackHole();
    accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
  });
  afterAll(() => hole.close());

  // The default connect timeout on purpose: it used to equal the socket timeout, so the client saw a
  // reset connection at the very moment the 503 was due.
  it('answers the documented 503 within NPC_CONNECT_TIMEOUT_MS (default 30 s) plus a small margin', async () => {
    const app = await buildTestApp(accounts, { MC_PORT: String(hole.port) });
    try {
      const url = await app.web.listen();
      const started = Date.now();
      const response = await fetch(`${url}/npc/spawn`, {
        method: 'POST',
        headers: { authorization: basic('all', 'pw') },
      });
      const elapsed = Date.now() - started;
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toMatch(/timed out after 30000 ms/);
      expect(elapsed).toBeGreaterThanOrEqual(30_000);
      expect(elapsed).toBeLessThan(32_000);
    } finally {
      await app.close();
    }
  }, 45_000);

  it('keeps the socket timeout above the longest operation for any NPC_CONNECT_TIMEOUT_MS', async () => {
    const app = await buildTestApp(accounts, {
      MC_PORT: String(hole.port),
      NPC_CONNECT_TIMEOUT_MS: '120000',
    });
    try {
      const server = app.web.app.server;
      // /spawn: up to the connect timeout, then up to 3 s for a teleport to show.
      expect(server.timeout).toBeGreaterThan(123_000);
      expect(server.requestTimeout).toBe(server.timeout);
      expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    } finally {
      await app.close();
    }
  });
});

describe('httpTimeouts', () => {
  it('puts the idle and request timeouts above the operation and keeps the header timeout short', () => {
    expect(httpTimeouts(33_000)).toEqual({
      idleMs: 43_000,
      requestMs: 43_000,
      headersMs: 15_000,
      keepAliveMs: 72_000,
    });
  });
});
