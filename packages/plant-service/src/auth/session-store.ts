/**
 * Server-side sessions. The cookie carries 32 random bytes (base64url); the table stores only
 * their SHA-256, so a leaked table cannot be replayed as cookies. A session ends at the earlier
 * of its absolute expiry and its idle timeout (sliding: each use moves the idle deadline).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { sessions, users } from '../db/tables.js';

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  nickname: string | null;
  is_admin: boolean;
  is_editor: boolean;
}

/** The user columns a SessionUser is read from, for sessions and API tokens alike. */
export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  nickname: users.nickname,
  is_admin: users.is_admin,
  is_editor: users.is_editor,
};

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Don't write last_seen_at on every request: once a minute is enough for an idle timeout in days. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashSessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(ex: Executor, userId: string, policy: SessionPolicy): Promise<string> {
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
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  if (now - row.last_seen_at.getTime() > TOUCH_INTERVAL_MS) {
    await ex.update(sessions).set({ last_seen_at: sql`now()` }).where(eq(sessions.id_hash, idHash));
  }
  const { last_seen_at: _seen, ...user } = row;
  return user;
}

export async function deleteSession(ex: Executor, token: string): Promise<void> {
  await ex.delete(sessions).where(eq(sessions.id_hash, hashSessionId(token)));
}

/** Removes expired and idle sessions; returns how many. */
export async function purgeExpiredSessions(ex: Executor, policy: SessionPolicy): Promise<number> {
  const now = Date.now();
  const rows = await ex
    .delete(sessions)
    .where(
      or(lte(sessions.expires_at, new Date(now)), lte(sessions.last_seen_at, new Date(now - policy.idleMs))),
    )
    .returning({ id: sessions.id_hash });
  return rows.length;
}
