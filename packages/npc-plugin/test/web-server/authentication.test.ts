import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NpcApp } from '../../src/app.js';
import { ENDPOINTS } from '../../src/descriptor.js';
import { basic, writeAccounts } from '../helpers/accounts.js';
import { buildTestApp } from '../helpers/app.js';

const METHOD: Record<(typeof ENDPOINTS)[number], 'GET' | 'POST'> = {
  spawn: 'POST',
  move: 'POST',
  chat: 'POST',
  look: 'POST',
  emote: 'POST',
  status: 'GET',
  world: 'GET',
  events: 'GET',
  metrics: 'GET',
};

/**
 * The event stream never ends, so `inject` could not wait for it: a malformed Last-Event-ID makes a
 * request that passed authentication end in a 400 instead.
 */
const HEADERS: Partial<Record<(typeof ENDPOINTS)[number], Record<string, string>>> = {
  events: { 'last-event-id': 'not-an-id' },
};

/** A body each endpoint accepts, so a request that passes authentication reaches the NPC. */
const BODY: Partial<Record<(typeof ENDPOINTS)[number], unknown>> = {
  move: { stop: true },
  chat: { message: 'hi' },
  look: { yaw: 0, pitch: 0 },
  emote: { name: 'wave' },
};

describe('authentication and permissions', () => {
  let app: NpcApp;

  beforeAll(async () => {
    const accounts = await writeAccounts(
      [
        { username: 'nobody', password: 'pw-nobody' },
        { username: 'all', password: 'pw-all', permissions: ['npc.web.*'] },
        { username: 'root', password: 'pw-root', permissions: ['*'] },
        { username: 'watcher', password: 'pw-watcher', groups: ['observers'] },
      ],
      { anonymous: [], observers: ['npc.web.status', 'npc.web.world'] },
    );
    // The game port points nowhere: spawn must fail fast instead of joining.
    app = await buildTestApp(accounts, { MC_PORT: '1', NPC_CONNECT_TIMEOUT_MS: '1000' });
  });

  afterAll(async () => {
    await app?.close();
  });

  const request = (endpoint: (typeof ENDPOINTS)[number], authorization?: string) =>
    app.web.app.inject({
      method: METHOD[endpoint],
      url: `/npc/${endpoint}`,
      headers: { ...HEADERS[endpoint], ...(authorization ? { authorization } : {}) },
      ...(BODY[endpoint] === undefined ? {} : { payload: BODY[endpoint] as object }),
    });

  for (const endpoint of ENDPOINTS) {
    describe(`${METHOD[endpoint]} /npc/${endpoint}`, () => {
      it('answers 401 with WWW-Authenticate: Basic without credentials', async () => {
        const response = await request(endpoint);
        expect(response.statusCode).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Basic realm=/);
        expect(response.json()).toEqual({ error: 'authentication required' });
      });

      it(`answers 403 to an account without npc.web.${endpoint}`, async () => {
        const response = await request(endpoint, basic('nobody', 'pw-nobody'));
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toContain(`npc.web.${endpoint}`);
      });

      it('lets an account with the node through (wildcard npc.web.*)', async () => {
        const response = await request(endpoint, basic('all', 'pw-all'));
        expect(endpoint === 'events' ? [400] : [200, 409, 503]).toContain(response.statusCode);
      });
    });
  }

  it('answers 401 to a wrong password', async () => {
    const response = await request('status', basic('all', 'wrong'));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'invalid credentials' });
  });

  it('grants `*` everything and a group its nodes only', async () => {
    expect((await request('status', basic('root', 'pw-root'))).statusCode).toBe(200);
    expect((await request('status', basic('watcher', 'pw-watcher'))).statusCode).toBe(200);
    expect((await request('world', basic('watcher', 'pw-watcher'))).statusCode).toBe(409);
    expect((await request('move', basic('watcher', 'pw-watcher'))).statusCode).toBe(403);
  });

  it('serves the OpenAPI document without credentials', async () => {
    const response = await app.web.app.inject({ method: 'GET', url: '/npc/openapi.yaml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('yaml');
    for (const endpoint of ENDPOINTS) expect(response.body).toContain(`/npc/${endpoint}:`);
  });
});

describe('the anonymous group', () => {
  it('grants its nodes without credentials, and only those', async () => {
    const accounts = await writeAccounts([], { anonymous: ['npc.web.status'] });
    const app = await buildTestApp(accounts);
    try {
      expect((await app.web.app.inject({ method: 'GET', url: '/npc/status' })).statusCode).toBe(200);
      expect((await app.web.app.inject({ method: 'GET', url: '/npc/world' })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('failed-login rate limit', () => {
  it('answers 429 with Retry-After after NPC_LOGIN_FAILURES_PER_MINUTE failures for a name, even to the right password', async () => {
    const accounts = await writeAccounts([
      { username: 'all', password: 'pw-all', permissions: ['npc.web.*'] },
    ]);
    const app = await buildTestApp(accounts, { NPC_LOGIN_FAILURES_PER_MINUTE: '3' });
    const status = (authorization: string) =>
      app.web.app.inject({ method: 'GET', url: '/npc/status', headers: { authorization } });
    try {
      expect((await status(basic('all', 'pw-all'))).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await status(basic('all', `guess-${i}`))).statusCode).toBe(401);
      const blocked = await status(basic('all', 'pw-all'));
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().error).toMatch(/too many failed logins/);
      // Requests without credentials are not failures and still get the 401 challenge.
      expect((await app.web.app.inject({ method: 'GET', url: '/npc/status' })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('a locked username does not lock the other accounts behind the same address', async () => {
    const accounts = await writeAccounts([
      { username: 'ops', password: 'pw-ops', permissions: ['npc.web.*'] },
      { username: 'other', password: 'pw-other', permissions: ['npc.web.*'] },
    ]);
    const app = await buildTestApp(accounts, { NPC_LOGIN_FAILURES_PER_MINUTE: '3' });
    const status = (authorization: string, remoteAddress = '10.0.0.7') =>
      app.web.app.inject({ method: 'GET', url: '/npc/status', headers: { authorization }, remoteAddress });
    try {
      for (let i = 0; i < 3; i++) expect((await status(basic('ops', `guess-${i}`))).statusCode).toBe(401);
      expect((await status(basic('ops', 'pw-ops'))).statusCode).toBe(429);
      expect((await status(basic('other', 'pw-other'))).statusCode).toBe(200);
      // The same name from another address is not locked either.
      expect((await status(basic('ops', 'pw-ops'), '10.0.0.8')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a burst from one address against many names still throttles that address', async () => {
    const accounts = await writeAccounts([
      { username: 'ops', password: 'pw-ops', permissions: ['npc.web.*'] },
    ]);
    const app = await buildTestApp(accounts, {
      NPC_LOGIN_FAILURES_PER_MINUTE: '3',
      NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '6',
    });
    const status = (authorization: string, remoteAddress = '10.0.0.9') =>
      app.web.app.inject({ method: 'GET', url: '/npc/status', headers: { authorization }, remoteAddress });
    try {
      for (let i = 0; i < 6; i++) expect((await status(basic(`name${i}`, 'guess'))).statusCode).toBe(401);
      const blocked = await status(basic('ops', 'pw-ops'));
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await status(basic('ops', 'pw-ops'), '10.0.0.10')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
