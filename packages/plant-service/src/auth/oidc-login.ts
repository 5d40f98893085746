/**
 * Wires the OIDC login into the app: the relying party (discovery starts when the app is ready
 * and stops when it closes) and the login service the /auth routes call. Without OIDC_ISSUER the
 * service still exists and its login answers 503 `login is not configured`.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import type { AuthSettings } from './auth-settings.js';
import { type LoginService, loginService } from './login-service.js';
import { createRelyingParty } from './oidc/relying-party.js';

export function createOidcLogin(
  app: FastifyInstance,
  database: Database,
  config: AuthSettings,
): LoginService {
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
  return loginService(database, config, relyingParty, app.log);
}
