import type { Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocalServer,
  startLocalServer,
} from '../../src/adapters/minecraft/local-server/local-server.js';
import type { NpcApp } from '../../src/app.js';
import { OFFLINE_LINE } from '../../src/core/conversation/conversation.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';
import { eventually, joinPlayer, quit, VERSION, waitForEvent } from '../helpers/minecraft.js';

/**
 * The NPC in this process (the real app, `inject`) on a server where nobody is an operator: /spawn
 * with a position must fall back to walking, and without LLM_BASE_URL the NPC answers with the
 * labelled offline line.
 */
describe('NPC without operator rights and without a gateway', () => {
  let server: LocalServer;
  let app: NpcApp;
  let dave: Bot;
  const authorization = basic('all', 'pw');
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.web.app.inject({
      method,
      url: `/npc${url}`,
      headers: { authorization },
      payload,
    });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    server = await startLocalServer({ port: 0, version: VERSION, everybodyOp: false });
    const accounts = await writeAccounts([{ username: 'all', password: 'pw', permissions: ['npc.web.*'] }]);
    app = await buildTestApp(accounts, { MC_PORT: String(server.port), MC_USERNAME: 'Walker' });
  });

  afterAll(async () => {
    await quit(dave);
    await app?.close();
    await server?.close();
  });

  it('POST /spawn joins the world', async () => {
    const { status, body } = await call('POST', '/spawn');
    expect(status).toBe(200);
    expect(body).toMatchObject({ action: 'joined', state: 'idle', goal: null });
    expect((await call('POST', '/spawn')).body.action).toBe('already_spawned');
  });

  it('POST /spawn with a position walks there when the server refuses the teleport', async () => {
    const from = (await call('GET', '/status')).body.position;
    const target = { x: Math.floor(from.x) + 6, y: from.y, z: Math.floor(from.z) };
    const { status, body } = await call('POST', '/spawn', target);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      action: 'walking',
      state: 'moving',
      goal: { kind: 'move', status: 'active' },
    });
    // The path steers the head meanwhile.
    expect(await call('POST', '/look', { yaw: 0, pitch: 0 })).toMatchObject({
      status: 409,
      body: { state: 'moving' },
    });
    const done = await eventually(
      async () => (await call('GET', '/status')).body,
      (s) => s.goal.status !== 'active',
      15_000,
      100,
    );
    expect(done.goal.status).toBe('succeeded');
    const p = done.position;
    expect(Math.hypot(p.x - target.x, p.z - target.z)).toBeLessThanOrEqual(1.5);
  });

  it('caps the /world radius and says which one it used', async () => {
    const { body } = await call('GET', '/world?radius=500');
    expect(body.radius).toBe(64);
    expect(body.self.username).toBe('Walker');
  });

  it('answers with the labelled offline line when no gateway is configured', async () => {
    dave = await joinPlayer(server.port, 'Dave');
    const heard = waitForEvent(
      dave,
      'whisper',
      (username, message) => username === 'Walker' && message === OFFLINE_LINE,
    );
    dave.whisper('Walker', 'are you there?');
    await heard;
    expect(OFFLINE_LINE.startsWith('[offline]')).toBe(true);
    expect((await call('GET', '/status')).body.gateway).toEqual({
      configured: false,
      model: null,
      last_success_at: null,
      last_error: null,
    });
  });
});
