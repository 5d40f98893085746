/**
 * Personal API tokens: queries only (the rules are in resources/tokens/service.ts).
 *
 * A token reads `plants_pat_<id><secret>`: the fixed prefix lets secret scanners (GitHub, GitLab,
 * trufflehog) recognise a leaked one, the id (32 hex digits) finds the row, and the secret (32
 * random bytes, base64url) is checked against its stored SHA-256 in constant time. The secret is
 * random enough that a fast hash is safe; the table alone cannot be replayed as tokens.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { apiTokens, users } from '../db/tables.js';
import { currentRoles, type SessionUser, sessionUserColumns } from './session-store.js';

export const TOKEN_PREFIX = 'plants_pat_';
const TOKEN_PATTERN = /^plants_pat_([0-9a-f]{32})([A-Za-z0-9_-]{43})$/;

/** Don't write last_used_at on every request: to the minute is precise enough. */
const TOUCH_INTERVAL_MS = 60_000;

export interface TokenRecord {
  id: string;
  name: string;
  user_id: string;
  user_email: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

const recordColumns = {
  id: apiTokens.id,
  name: apiTokens.name,
  user_id: apiTokens.user_id,
  user_email: users.email,
  created_at: apiTokens.created_at,
  last_used_at: apiTokens.last_used_at,
  expires_at: apiTokens.expires_at,
};

/** Stores a new token; returns its record and the secret, which is never readable again. */
export async function insertToken(
  ex: Executor,
  userId: string,
  name: string,
  expiresAt: Date,
): Promise<{ record: Omit<TokenRecord, 'user_email'>; token: string }> {
  const secret = randomBytes(32).toString('base64url');
  const [row] = await ex
    .insert(apiTokens)
    .values({
      user_id: userId,
      name,
      secret_hash: hashSecret(secret).toString('hex'),
      expires_at: expiresAt,
    })
    .returning({
      id: apiTokens.id,
      name: apiTokens.name,
      user_id: apiTokens.user_id,
      created_at: apiTokens.created_at,
      last_used_at: apiTokens.last_used_at,
      expires_at: apiTokens.expires_at,
    });
  return { record: row!, token: `${TOKEN_PREFIX}${row!.id.replaceAll('-', '')}${secret}` };
}

/**
 * The owner of a live token, with the roles the provider last confirmed unless they lapsed
 * (roleRefreshMs); undefined if malformed, unknown, revoked, expired or its owner is disabled.
 */
export async function findTokenUser(
  ex: Executor,
  token: string,
  roleRefreshMs: number,
): Promise<(SessionUser & { token_id: string }) | undefined> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const hex = match[1]!;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const [row] = await ex
    .select({
      ...sessionUserColumns,
      secret_hash: apiTokens.secret_hash,
      expires_at: apiTokens.expires_at,
      last_used_at: apiTokens.last_used_at,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(and(eq(apiTokens.id, id), isNull(users.disabled_at)))
    .limit(1);
  if (!row) return undefined;
  if (!timingSafeEqual(Buffer.from(row.secret_hash, 'hex'), hashSecret(match[2]!))) return undefined;
  const now = Date.now();
  if (row.expires_at.getTime() <= now) return undefined;
  if (!row.last_used_at || now - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
    await ex.update(apiTokens).set({ last_used_at: sql`now()` }).where(eq(apiTokens.id, id));
  }
  const { secret_hash: _hash, expires_at: _expires, last_used_at: _used, ...user } = row;
  return { ...currentRoles(user, roleRefreshMs, now), token_id: id };
}

/** Tokens of one user, or of everyone (userId undefined), newest first. */
export async function listTokens(ex: Executor, userId: string | undefined): Promise<TokenRecord[]> {
  return ex
    .select(recordColumns)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.user_id))
    .where(userId ? eq(apiTokens.user_id, userId) : undefined)
    .orderBy(desc(apiTokens.created_at), apiTokens.id);
}

/** Deletes a token (only the given owner's unless ownerId is undefined); false if none matched. */
export async function deleteToken(ex: Executor, id: string, ownerId: string | undefined): Promise<boolean> {
  const rows = await ex
    .delete(apiTokens)
    .where(ownerId ? and(eq(apiTokens.id, id), eq(apiTokens.user_id, ownerId)) : eq(apiTokens.id, id))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** Revokes every token of a user; returns how many. */
export async function deleteUserTokens(ex: Executor, userId: string): Promise<number> {
  const rows = await ex
    .delete(apiTokens)
    .where(eq(apiTokens.user_id, userId))
    .returning({ id: apiTokens.id });
  return rows.length;
}
