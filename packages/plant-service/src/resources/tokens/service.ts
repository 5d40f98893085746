/**
 * Personal API tokens: a signed-in user creates, lists and revokes their own; an administrator
 * lists and revokes anyone's. Tokens are created from a browser session only, so a leaked token
 * cannot mint successors that outlive its revocation.
 */
import { deleteToken, insertToken, listTokens } from '../../auth/api-tokens.js';
import type { SessionUser } from '../../auth/session-store.js';
import type { Database } from '../../db/client.js';
import { BadRequest, Forbidden, NotFound } from '../../errors.js';

/** The furthest expiry accepted. */
const MAX_LIFETIME_MS = 10 * 365.25 * 86_400_000;

export function tokenService({ db }: Database) {
  return {
    async create(
      user: SessionUser,
      method: 'session' | 'token' | null,
      input: { name: string; expires_at?: string | null | undefined },
    ) {
      if (method !== 'session') {
        throw new Forbidden('tokens are created from a signed-in browser session, not with a token');
      }
      const name = input.name.trim();
      if (!name) throw new BadRequest('name: must not be blank', { field: 'name' });
      let expiresAt: Date | null = null;
      if (input.expires_at != null) {
        expiresAt = new Date(input.expires_at);
        const ahead = expiresAt.getTime() - Date.now();
        if (!(ahead > 0)) throw new BadRequest('expires_at: must be in the future', { field: 'expires_at' });
        if (ahead > MAX_LIFETIME_MS) {
          throw new BadRequest('expires_at: must be at most 10 years ahead', { field: 'expires_at' });
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
