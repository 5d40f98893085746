/**
 * The login rules: start a login, finish it at the callback (state bound to
 * the browser and taken once, code exchanged with PKCE, nonce checked, user upserted, roles
 * re-evaluated, session rotated), and log out. Routes only translate HTTP to these calls.
 */
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { Database } from '../db/client.js';
import { BadRequest, Forbidden, ServiceUnavailable, Unauthorized } from '../errors.js';
import type { AuthSettings } from './auth-settings.js';
import { readGroups, readProfile, rolesFor } from './oidc/claims.js';
import { savePendingLogin, takePendingLogin } from './oidc/pending-logins.js';
import type { RelyingParty } from './oidc/relying-party.js';
import { parseReturnTo } from './oidc/return-to.js';
import { createSession, deleteSession, type SessionPolicy } from './session-store.js';
import { upsertUser } from './users.js';

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  [param: string]: string | undefined;
}

export interface CallbackInput {
  /** Every query parameter the provider sent (openid-client checks `iss` and others). */
  query: CallbackQuery;
  /** The state remembered in this browser's login cookie. */
  browserState: string | undefined;
  /** The session cookie the browser still had, if any: ended, since the id rotates at login. */
  previousSession: string | undefined;
}

export interface LoginService {
  begin(returnTo: string | undefined): Promise<{ location: string; state: string }>;
  complete(input: CallbackInput): Promise<{ sessionToken: string; returnTo: string }>;
  logout(sessionToken: string | undefined): Promise<void>;
  /** Throws ServiceUnavailable when no provider is configured, as every /auth/oidc route answers then. */
  checkConfigured(): void;
}

export const NOT_CONFIGURED = 'login is not configured';
const RESTART = 'start again at /auth/oidc/login';

export function loginService(
  { db }: Database,
  config: AuthSettings,
  relyingParty: RelyingParty | undefined,
  log: FastifyBaseLogger,
): LoginService {
  const policy: Pick<SessionPolicy, 'maxMs'> = { maxMs: config.sessionMaxMs };
  const { roles: rules } = config.auth;

  function provider(): RelyingParty {
    if (!relyingParty) throw new ServiceUnavailable(NOT_CONFIGURED);
    if (!relyingParty.ready) {
      throw new ServiceUnavailable('login is unavailable: the identity provider cannot be reached; retrying');
    }
    return relyingParty;
  }

  return {
    async begin(returnTo) {
      const rp = provider();
      const target = parseReturnTo(returnTo);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await savePendingLogin(db, state, { nonce, codeVerifier, returnTo: target });
      const url = rp.authorizationUrl({
        state,
        nonce,
        codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      });
      return { location: url.href, state };
    },

    async complete({ query, browserState, previousSession }) {
      const rp = provider();
      const { state, code, error } = query;
      if (!state) throw new BadRequest('state: is required', { field: 'state', in: 'query' });
      // Binding the state to the browser that started the login stops login CSRF: a callback
      // URL made for someone else's account cannot sign this browser in.
      if (state !== browserState) {
        throw new BadRequest(`state does not match the login started in this browser; ${RESTART}`);
      }
      const pending = await takePendingLogin(db, state);
      if (!pending) throw new BadRequest(`unknown or expired login state; ${RESTART}`);
      if (error) {
        throw new Unauthorized(
          `the identity provider refused the login: ${error.replace(/[^\w.-]/g, '').slice(0, 64)}`,
        );
      }
      if (!code) throw new BadRequest('code: is required', { field: 'code', in: 'query' });

      const callbackUrl = new URL(config.auth.oidc!.redirectUri);
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined) callbackUrl.searchParams.set(key, value);
      }
      let result: Awaited<ReturnType<RelyingParty['exchange']>>;
      try {
        result = await rp.exchange(callbackUrl, { state, ...pending });
      } catch (cause) {
        log.warn({ err: cause }, 'OIDC code exchange failed');
        throw new Unauthorized('the identity provider did not confirm the login', {}, { cause });
      }

      const profile = readProfile(result.idToken, result.userinfo);
      if (!profile) {
        throw new Unauthorized('the identity provider sent no email address (is the email scope granted?)');
      }
      const groups = readGroups(rules.groupsClaim, result.idToken, result.userinfo);
      const roles = rolesFor(profile, groups, rules);

      const sessionToken = await db.transaction(async (tx) => {
        const user = await upsertUser(tx, {
          issuer: result.issuer,
          subject: String(result.idToken.sub),
          email: profile.email,
          name: profile.name,
          nickname: profile.nickname,
          isAdmin: roles.admin,
          isEditor: roles.editor,
        });
        // Thrown inside the transaction: a disabled user's row is left as the administrator left it.
        if (user.disabled) throw new Forbidden('this account is disabled; ask an administrator');
        if (previousSession) await deleteSession(tx, previousSession);
        return createSession(tx, user.id, policy);
      });
      return { sessionToken, returnTo: pending.returnTo };
    },

    async logout(sessionToken) {
      this.checkConfigured();
      if (sessionToken) await deleteSession(db, sessionToken);
    },

    checkConfigured() {
      if (!relyingParty) throw new ServiceUnavailable(NOT_CONFIGURED);
    },
  };
}
