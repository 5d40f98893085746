/**
 * Server-side sessions. The cookie carries 32 random bytes (base64url); the table stores only
 * their SHA-256, so a leaked table cannot be replayed as cookies. A session ends at the earlier
 * of its absolute expiry and its idle timeout (sliding: each use moves the idle deadline), and
 * also once its user's roles were last confirmed by the provider longer ago than the role
 * refresh interval, or the user was disabled.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { sessions, users } from '../db/tables.js';

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  nickname: string | null;
  is_admin: boolean;
  is_editor: boolean;
  /**
   * False when the provider last confirmed the roles longer ago than the role refresh interval
   * (a token of a user who has not signed in since): is_admin and is_editor are then false too.
   */
  roles_current: boolean;
}

/** The user columns a SessionUser is read from, for sessions and API tokens alike. */
export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  nickname: users.nickname,
  is_admin: users.is_admin,
  is_editor: users.is_editor,
  roles_checked_at: users.roles_checked_at,
};

/** A user row as read with sessionUserColumns, its roles dropped when they lapsed. */
export function currentRoles(
  row: Omit<SessionUser, 'roles_current'> & { roles_checked_at: Date },
  roleRefreshMs: number,
  now = Date.now(),
): SessionUser {
  const { roles_checked_at: checked, ...user } = row;
  const current = roleRefreshMs === 0 || now - checked.getTime() < roleRefreshMs;
  return current
    ? { ...user, roles_current: true }
    : { ...user, is_admin: false, is_editor: false, roles_current: false };
}

/** The user is enabled and, unless roleRefreshMs is 0, had their roles confirmed since `now - roleRefreshMs`. */
export function rolesConfirmed(roleRefreshMs: number, now: number): SQL | undefined {
  return roleRefreshMs === 0 ? undefined : gt(users.roles_checked_at, new Date(now - roleRefreshMs));
}

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
  /** See AuthSettings.roleRefreshMs. */
  roleRefreshMs: number;
}

/** Don't write last_seen_at on every request: once a minute is enough for an idle timeout in days. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashSessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  ex: Executor,
  userId: string,
  policy: Pick<SessionPolicy, 'maxMs'>,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await ex.insert(sessions).values({
    id_hash: hashSessionId(token),
    user_id: userId,
    expires_at: new Date(Date.now() + policy.maxMs),
  });
  return token;
}

/** The user of a live session, or undefined when the token is unknown, expired or idle too long. */
export async function findSessionUser(
  ex: Executor,
  token: string,
  policy: SessionPolicy,
): Promise<SessionUser | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const idHash = hashSessionId(token);
  const now = Date.now();
  const rows = await ex
    .select({
      ...sessionUserColumns,
      last_seen_at: sessions.last_seen_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.id_hash, idHash),
        gt(sessions.expires_at, new Date(now)),
        gt(sessions.last_seen_at, new Date(now - policy.idleMs)),
        isNull(users.disabled_at),
        rolesConfirmed(policy.roleRefreshMs, now),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  if (now - row.last_seen_at.getTime() > TOUCH_INTERVAL_MS) {
    await ex.update(sessions).set({ last_seen_at: sql`now()` }).where(eq(sessions.id_hash, idHash));
  }
  const { last_seen_at: _seen, ...user } = row;
  return currentRoles(user, policy.roleRefreshMs, now);
}

export async function deleteSession(ex: Executor, token: string): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.id_hash, hashSessionId(token)));
}

/** Ends every session of a user; returns how many. */
export async function deleteUserSessions(ex: Executor, userId: string): Promise<number> {
  const rows = await ex
    .delete(sessions)
    .where(eq(sessions.user_id, userId))
    .returning({ id: sessions.id_hash });
  return rows.length;
}

/** Removes expired and idle sessions; returns how many. */
export async function purgeExpiredSessions(
  ex: Executor,
  policy: Omit<SessionPolicy, 'roleRefreshMs'>,
): Promise<number> {
  const now = Date.now();
  const rows = await ex
    .delete(sessions)
    .where(
      or(lte(sessions.expires_at, new Date(now)), lte(sessions.last_seen_at, new Date(now - policy.idleMs))),
    )
    .returning({ id: sessions.id_hash });
  return rows.length;
}
