/**
 * `npm run dev` / DEV_IDP=true: starts the embedded provider and points the service's login at
 * it, so a newcomer can sign in from the browser and write at once. Administrators and editors
 * come from the demo accounts' groups; unless WRITE_ACCESS is set, writing needs the editor
 * role here, so the three kinds of user (admin, editor, reader) differ visibly.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CALLBACK_PATH } from '../auth/auth-config.js';
import type { Config } from '../config.js';
import { DEV_ADMIN_GROUP, DEV_EDITOR_GROUP, demoAccounts, readerAccount } from './accounts.js';
import { type DevIdp, startDevIdp } from './provider.js';

const CLIENT_ID = 'plant-service-dev';

export async function startDevLogin(
  config: Config,
  env: NodeJS.ProcessEnv,
  log: FastifyBaseLogger,
): Promise<{ config: Config; idp: DevIdp }> {
  const clientSecret = randomBytes(24).toString('base64url');
  const redirectUri = `${config.auth.publicUrl}${CALLBACK_PATH}`;
  const idp = await startDevIdp({
    port: config.auth.devIdp.port,
    clients: [{ client_id: CLIENT_ID, client_secret: clientSecret, redirect_uris: [redirectUri] }],
    accounts: demoAccounts(),
    otherAccount: readerAccount,
  });
  const { roles } = config.auth;
  const devConfig: Config = Object.freeze({
    ...config,
    writeAccess: env.WRITE_ACCESS ? config.writeAccess : 'groups',
    auth: Object.freeze({
      ...config.auth,
      oidc: Object.freeze({
        issuer: idp.issuer,
        clientId: CLIENT_ID,
        clientSecret,
        scopes: 'openid email profile',
        redirectUri,
        allowHttp: true,
      }),
      roles: Object.freeze({
        ...roles,
        adminGroups: roles.adminGroups.length > 0 ? roles.adminGroups : [DEV_ADMIN_GROUP],
        editorGroups: roles.editorGroups.length > 0 ? roles.editorGroups : [DEV_EDITOR_GROUP],
      }),
    }),
  });
  log.warn(
    {
      issuer: idp.issuer,
      signIn: `${config.auth.publicUrl}/auth/oidc/login?return_to=/api/docs`,
      logins: { admin: 'administrator', editor: 'editor', 'any other name': 'reader' },
      password: 'anything',
      writeAccess: devConfig.writeAccess,
    },
    'DEV_IDP: development identity provider running (never use it in production)',
  );
  return { config: devConfig, idp };
}
