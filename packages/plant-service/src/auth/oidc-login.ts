/**
 * Wires the OIDC login into the app: the relying party (discovery starts when the app is ready
 * and stops when it closes), the login service and the /auth routes. Without OIDC_ISSUER the
 * routes still exist and /auth/oidc/* answers 503 `login is not configured`.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { authRoutes } from '../resources/auth/routes.js';
import { loginService } from './login-service.js';
import { createRelyingParty } from './oidc/relying-party.js';

export async function registerOidcLogin(
  app: FastifyInstance,
  database: Database,
  config: Config,
): Promise<void> {
  const { oidc, roles } = config.auth;
  const relyingParty = oidc
    ? createRelyingParty(
        oidc,
        {
          groupsClaim: roles.groupsClaim,
          wantGroups: roles.adminGroups.length + roles.editorGroups.length > 0,
        },
        app.log,
      )
    : undefined;
  if (relyingParty) {
    app.addHook('onReady', async () => relyingParty.start());
    app.addHook('onClose', async () => relyingParty.close());
  }
  await app.register(authRoutes(loginService(database, config, relyingParty, app.log), config));
}
