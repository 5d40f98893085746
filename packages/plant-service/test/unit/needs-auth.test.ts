import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { AUTH_GUARD } from '../../src/auth/guard.js';
import { needsAuth } from '../../src/http/needs-auth.js';

const routes = needsAuth(async (app) => {
  app.get('/', { preHandler: app.auth.session }, async () => ({ ok: true }));
});

describe('route plugins that use the auth guard', () => {
  it('refuse to start without the guard, naming what is missing', async () => {
    const app = Fastify();
    app.register(routes, { prefix: '/things' });
    await expect(app.ready()).rejects.toThrow(/auth/);
  });

  it('start after the guard and keep their prefix', async () => {
    const app = Fastify();
    const guard = fp(
      async (instance) => {
        instance.decorate('auth', {
          session: async () => {},
          optional: async () => {},
          writer: async () => {},
          admin: async () => {},
        });
      },
      { name: AUTH_GUARD },
    );
    await app.register(guard);
    await app.register(routes, { prefix: '/things' });
    const response = await app.inject({ url: '/things' });
    expect(response.json()).toEqual({ ok: true });
    await app.close();
  });
});
