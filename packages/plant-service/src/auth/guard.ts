/**
 * Authorization: reads are public; writes need a session (cookie `id`) or a personal API token
 * (`Authorization: Bearer`) of a user allowed to write (WRITE_ACCESS); deleting catalogue records
 * needs an admin. 401 without a valid credential, 403 with one whose user lacks the role. A
 * request that sends a bearer token is judged by the token alone, never by a cookie beside it.
 */

import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.js';
import { Forbidden, Unauthorized } from '../errors.js';
import { findTokenUser } from './api-tokens.js';
import type { AuthSettings, WriteAccess } from './auth-settings.js';
import { findSessionUser, type SessionPolicy, type SessionUser } from './session-store.js';

export const SESSION_COOKIE = 'id';

/** The guard's plugin name, for the route plugins that depend on it. */
export const AUTH_GUARD = 'auth-guard';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards below once the session was checked. */
    user: SessionUser | null;
    /** How `user` was authenticated. */
    authMethod: 'session' | 'token' | null;
    /** The API token's id when `user` was authenticated by one. */
    tokenId: string | null;
  }
  interface FastifyInstance {
    auth: {
      /** Any valid session. */
      session: preHandlerAsyncHookHandler;
      /** For public reads that show more to some users: the user if credentials are valid, else none. */
      optional: preHandlerAsyncHookHandler;
      /** A session whose user may write (WRITE_ACCESS). */
      writer: preHandlerAsyncHookHandler;
      /** A session of an administrator. */
      admin: preHandlerAsyncHookHandler;
    };
  }
}

export function canWrite(user: SessionUser, writeAccess: WriteAccess): boolean {
  // Lapsed roles: not even WRITE_ACCESS=any-user writes until the provider confirms the user again.
  if (!user.roles_current) return false;
  if (user.is_admin) return true;
  if (writeAccess === 'any-user') return true;
  if (writeAccess === 'groups') return user.is_editor;
  return false;
}

export const authGuard = fp<{ database: Database; config: AuthSettings }>(
  async (app, { database, config }) => {
    const policy: SessionPolicy = {
      idleMs: config.sessionIdleMs,
      maxMs: config.sessionMaxMs,
      roleRefreshMs: config.roleRefreshMs,
    };
    app.decorateRequest('user', null);

    app.decorateRequest('authMethod', null);
    app.decorateRequest('tokenId', null);

    async function requireUser(request: FastifyRequest): Promise<SessionUser> {
      if (request.user) return request.user;
      const bearer = bearerToken(request);
      if (bearer !== undefined) {
        const found = await findTokenUser(database.db, bearer, config.roleRefreshMs);
        if (!found) throw new Unauthorized('invalid API token: unknown, revoked or expired');
        const { token_id, ...user } = found;
        request.user = user;
        request.authMethod = 'token';
        request.tokenId = token_id;
        return user;
      }
      const token = request.cookies[SESSION_COOKIE];
      const user = token ? await findSessionUser(database.db, token, policy) : undefined;
      if (!user) throw new Unauthorized('sign in required: no valid session or API token');
      request.user = user;
      request.authMethod = 'session';
      return user;
    }

    app.decorate('auth', {
      session: async (request: FastifyRequest, _reply: FastifyReply) => {
        await requireUser(request);
      },
      optional: async (request: FastifyRequest, _reply: FastifyReply) => {
        if (bearerToken(request) === undefined && request.cookies[SESSION_COOKIE] === undefined) return;
        try {
          await requireUser(request);
        } catch (error) {
          // A public read stays public: invalid credentials only mean nothing more is shown.
          if (!(error instanceof Unauthorized)) throw error;
        }
      },
      writer: async (request: FastifyRequest, _reply: FastifyReply) => {
        const user = await requireUser(request);
        if (!canWrite(user, config.writeAccess)) {
          throw new Forbidden(
            !user.roles_current
              ? 'roles lapsed: the owner of this token has to sign in again for the identity provider to confirm them'
              : config.writeAccess === 'admins'
                ? 'only administrators may write'
                : 'writing needs the editor role (OIDC_EDITOR_GROUPS)',
          );
        }
      },
      admin: async (request: FastifyRequest, _reply: FastifyReply) => {
        const user = await requireUser(request);
        if (!user.is_admin) {
          throw new Forbidden(
            user.roles_current
              ? 'only administrators may do this'
              : 'roles lapsed: the owner of this token has to sign in again for the identity provider to confirm them',
          );
        }
      },
    });
  },
  { name: AUTH_GUARD, dependencies: ['@fastify/cookie'] },
);

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), else undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1] : undefined;
}
