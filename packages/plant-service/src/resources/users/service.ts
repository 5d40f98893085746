/**
 * User administration: an administrator lists users and disables or enables one. Disabling
 * ends the user's sessions and revokes their API tokens in the same transaction, so no request
 * after the answer is served with the user's credentials; a disabled user cannot sign in again
 * until enabled. An administrator cannot disable their own account, so the last one cannot lock
 * everyone out by mistake.
 */
import type { FastifyBaseLogger } from 'fastify';
import { deleteUserTokens } from '../../auth/api-tokens.js';
import { deleteUserSessions, type SessionUser } from '../../auth/session-store.js';
import { listUsers, setUserDisabled } from '../../auth/users.js';
import type { Database } from '../../db/client.js';
import { Conflict, NotFound } from '../../errors.js';

export function userService({ db }: Database, log: FastifyBaseLogger) {
  return {
    async list() {
      return { data: await listUsers(db) };
    },

    async disable(admin: SessionUser, id: string) {
      if (id === admin.id) throw new Conflict('an administrator cannot disable their own account');
      const result = await db.transaction(async (tx) => {
        const user = await setUserDisabled(tx, id, admin.id);
        if (!user) return undefined;
        return {
          ...user,
          sessions_ended: await deleteUserSessions(tx, id),
          tokens_revoked: await deleteUserTokens(tx, id),
        };
      });
      if (!result) throw new NotFound(`no user ${id}`);
      log.info(
        { user: id, by: admin.id, sessions: result.sessions_ended, tokens: result.tokens_revoked },
        'user disabled',
      );
      return result;
    },

    async enable(admin: SessionUser, id: string) {
      const user = await setUserDisabled(db, id, null);
      if (!user) throw new NotFound(`no user ${id}`);
      log.info({ user: id, by: admin.id }, 'user enabled');
      return user;
    },
  };
}
