import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NpcApp } from '../../src/app.js';
import { EMOTES } from '../../src/core/emotes.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';

/**
 * Bad payloads → 400 naming the field; actions while the NPC is not in the world → 409 with its
 * state. The NPC is offline here: validation runs before the NPC is asked.
 */
describe('request validation and conflicts', () => {
  let app: NpcApp;
  const authorization = basic('all', 'pw');

  beforeAll(async () => {
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    app = await buildTestApp(accounts, { MC_PORT: '1', NPC_CONNECT_TIMEOUT_MS: '1000' });
  });

  afterAll(async () => {
    await app?.close();
  });

  const post = (endpoint: string, payload: unknown) =>
    app.web.app.inject({
      method: 'POST',
      url: `/npc/${endpoint}`,
      headers: { authorization },
      payload: payload as object,
    });

  const cases: [string, string, unknown, string][] = [
    ['move', 'a missing coordinate', { x: 1, z: 2 }, 'y'],
    ['move', 'no mode at all', {}, 'body'],
    ['move', 'two modes', { x: 1, y: 2, z: 3, follow: 'Alice' }, 'follow'],
    ['move', 'a bad player name', { follow: 'not a name!' }, 'follow'],
    ['move', 'a coordinate of the wrong type', { x: 'east', y: 1, z: 1 }, 'x'],
    ['move', 'a coordinate beyond the world border', { x: 4e7, y: 1, z: 1 }, 'x'],
    ['move', 'range without a position', { follow: 'Alice', range: 2 }, 'range'],
    ['move', 'stop: false', { stop: false }, 'stop'],
    ['move', 'an unknown field', { stop: true, speed: 3 }, 'speed'],
    ['chat', 'an empty message', { message: '' }, 'message'],
    ['chat', 'a message over 1000 characters', { message: 'a'.repeat(1001) }, 'message'],
    ['chat', 'a command', { message: '/op everyone' }, 'message'],
    ['chat', 'a formatting code', { message: '§cred' }, 'message'],
    ['chat', 'a control character', { message: 'bell\u0007' }, 'message'],
    ['chat', 'no message', {}, 'message'],
    ['look', 'nothing to look at', {}, 'yaw'],
    ['look', 'yaw without pitch', { yaw: 10 }, 'pitch'],
    ['look', 'a target and angles', { player: 'Alice', yaw: 0, pitch: 0 }, 'yaw'],
    ['look', 'pitch out of range', { yaw: 0, pitch: 91 }, 'pitch'],
    ['look', 'a negative entity id', { entity_id: -1 }, 'entity_id'],
    ['emote', 'point_at without a target', { name: 'point_at' }, 'target'],
    [
      'emote',
      'a target on an emote that takes none',
      { name: 'wave', target: { player: 'Alice' } },
      'target',
    ],
    ['emote', 'a half target', { name: 'point_at', target: { x: 1 } }, 'target.y'],
    ['spawn', 'a partial position', { x: 1 }, 'y'],
    ['spawn', 'null coordinates', { x: null, y: 5, z: null }, 'x'],
    ['spawn', 'a coordinate sent as a string', { x: 1, y: '5', z: 1 }, 'y'],
    ['move', 'null coordinates', { x: null, y: 5, z: null }, 'x'],
    ['move', 'a coordinate sent as a string', { x: '1', y: 5, z: 1 }, 'x'],
    ['move', 'a follow distance sent as a string', { follow: 'Alice', distance: '3' }, 'distance'],
    ['look', 'a yaw sent as a string', { yaw: '10', pitch: 0 }, 'yaw'],
    ['look', 'a null entity id', { entity_id: null }, 'entity_id'],
    ['emote', 'a null target coordinate', { name: 'point_at', target: { x: null, y: 1, z: 1 } }, 'target.x'],
    ['chat', 'a number as the message', { message: 42 }, 'message'],
  ];

  for (const [endpoint, what, payload, field] of cases) {
    it(`POST /${endpoint} with ${what} → 400 naming ${field}`, async () => {
      const response = await post(endpoint, payload);
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.field).toBe(field);
      expect(body.error).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    });
  }

  it('lists the allowed names for an unknown emote', async () => {
    const response = await post('emote', { name: 'dance' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'name', allowed: [...EMOTES] });
    expect(response.json().error).toContain('wave, nod, shake_head, jump, crouch, spin, point_at');
  });

  it('rejects malformed JSON with 400 {error}', async () => {
    const response = await app.web.app.inject({
      method: 'POST',
      url: '/npc/move',
      headers: { authorization, 'content-type': 'application/json' },
      payload: '{"x": ',
    });
    expect(response.statusCode).toBe(400);
    expect(typeof response.json().error).toBe('string');
  });

  it('rejects a world radius below 1 with 400 naming radius', async () => {
    const response = await app.web.app.inject({
      method: 'GET',
      url: '/npc/world?radius=0',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('radius');
  });

  it('reads a plain integer radius from the query string and refuses anything else naming radius', async () => {
    const world = (query: string) =>
      app.web.app.inject({ method: 'GET', url: `/npc/world?${query}`, headers: { authorization } });
    // Valid: the request passes validation and reaches the NPC, which is offline here.
    expect((await world('radius=16')).statusCode).toBe(409);
    for (const bad of ['radius=abc', 'radius=1.5', 'radius=', 'radius=-3']) {
      const response = await world(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().field, bad).toBe('radius');
    }
  });

  it('answers 404 {error} for an unknown route', async () => {
    const response = await app.web.app.inject({
      method: 'GET',
      url: '/npc/nope',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toContain('/npc/nope');
  });

  for (const [endpoint, payload] of [
    ['move', { x: 1, y: 2, z: 3 }],
    ['chat', { message: 'hello' }],
    ['look', { yaw: 0, pitch: 0 }],
    ['emote', { name: 'wave' }],
  ] as const) {
    it(`POST /${endpoint} while offline → 409 with the state`, async () => {
      const response = await post(endpoint, payload);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: expect.stringContaining('not in the world'),
        state: 'offline',
      });
    });
  }

  it('GET /world while offline → 409 with the state', async () => {
    const response = await app.web.app.inject({
      method: 'GET',
      url: '/npc/world',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().state).toBe('offline');
  });

  it('GET /status while offline reports the plugin, the state and the connection', async () => {
    const response = await app.web.app.inject({
      method: 'GET',
      url: '/npc/status',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      plugin: { id: 'npc', version: '1.0.0' },
      spawned: false,
      state: 'offline',
      position: null,
      goal: null,
      connection: { connected: false, reconnecting: false },
      gateway: { configured: false, model: null, last_success_at: null, last_error: null },
    });
  });

  it('POST /spawn answers 503 when the game server cannot be reached, and /status shows it retrying', async () => {
    const response = await post('spawn', {});
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toMatch(/could not join/);
    const status = await app.web.app.inject({
      method: 'GET',
      url: '/npc/status',
      headers: { authorization },
    });
    expect(status.json()).toMatchObject({
      state: 'offline',
      connection: { connected: false, reconnecting: true },
    });
    expect(status.json().connection.last_error).toBeTruthy();
  });
});

describe('joining a server that accepts but never answers', () => {
  it('gives up after NPC_CONNECT_TIMEOUT_MS and answers 503', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    const port = String((silent.address() as AddressInfo).port);
    const app = await buildTestApp(accounts, { MC_PORT: port, NPC_CONNECT_TIMEOUT_MS: '1000' });
    try {
      const started = Date.now();
      const response = await app.web.app.inject({
        method: 'POST',
        url: '/npc/spawn',
        headers: { authorization: basic('all', 'pw') },
      });
      expect(response.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.json().error).toMatch(/timed out after 1000 ms/);
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
