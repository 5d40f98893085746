/**
 * Personal API tokens: a signed-in user creates, lists and revokes their own; an administrator
 * lists and revokes anyone's. Tokens are created from a browser session only, so a leaked token
 * cannot mint successors that outlive its revocation. Every token expires: after
 * TOKEN_DEFAULT_DAYS unless the request asks for a nearer date, never after TOKEN_MAX_DAYS.
 */
import { deleteToken, insertToken, listTokens } from '../../auth/api-tokens.js';
import type { SessionUser } from '../../auth/session-store.js';
import type { Database } from '../../db/client.js';
import { BadRequest, Forbidden, NotFound } from '../../errors.js';

export interface TokenLifetimes {
  tokenDefaultMs: number;
  tokenMaxMs: number;
}

const days = (ms: number) => `${Math.round((ms / 86_400_000) * 100) / 100} days`;

export function tokenService({ db }: Database, lifetimes: TokenLifetimes) {
  return {
    async create(
      user: SessionUser,
      method: 'session' | 'token' | null,
      input: { name: string; expires_at?: string | undefined },
    ) {
      if (method !== 'session') {
        throw new Forbidden('tokens are created from a signed-in browser session, not with a token');
      }
      const name = input.name.trim();
      if (!name) throw new BadRequest('name: must not be blank', { field: 'name' });
      const now = Date.now();
      let expiresAt = new Date(now + lifetimes.tokenDefaultMs);
      if (input.expires_at !== undefined) {
        expiresAt = new Date(input.expires_at);
        const ahead = expiresAt.getTime() - now;
        if (!(ahead > 0)) throw new BadRequest('expires_at: must be in the future', { field: 'expires_at' });
        if (ahead > lifetimes.tokenMaxMs) {
          throw new BadRequest(
            `expires_at: must be at most ${days(lifetimes.tokenMaxMs)} ahead (TOKEN_MAX_DAYS)`,
            { field: 'expires_at', max_days: lifetimes.tokenMaxMs / 86_400_000 },
          );
        }
      }
      const { record, token } = await insertToken(db, user.id, name, expiresAt);
      const { user_id: _owner, ...rest } = record;
      return { ...rest, token };
    },

    async list(user: SessionUser, all: boolean) {
      if (all && !user.is_admin) throw new Forbidden("only administrators may list everyone's tokens");
      return { data: await listTokens(db, all ? undefined : user.id) };
    },

    /** Revokes at once: the next request with the token gets a 401. Another user's token is a 404. */
    async revoke(user: SessionUser, id: string) {
      const deleted = await deleteToken(db, id, user.is_admin ? undefined : user.id);
      if (!deleted) throw new NotFound(`no token ${id}`);
      return { deleted: true };
    },
  };
}
