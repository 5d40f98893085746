/**
 * Logins in progress (table oidc_logins): the state, nonce and PKCE verifier stay on the server
 * between /auth/oidc/login and /auth/oidc/callback. The table stores the state only as its
 * SHA-256; a state is taken (deleted) at its first use, so a callback cannot be replayed.
 */
import { createHash } from 'node:crypto';
import { eq, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { oidcLogins } from '../../db/tables.js';

/** How long a user has between leaving for the provider and coming back. */
export const LOGIN_TTL_MS = 10 * 60_000;

export interface PendingLogin {
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** Stores a new pending login, and drops the expired ones on the way. */
export async function savePendingLogin(ex: Executor, state: string, login: PendingLogin): Promise<void> {
  const now = Date.now();
  await ex.delete(oidcLogins).where(lte(oidcLogins.expires_at, new Date(now)));
  await ex.insert(oidcLogins).values({
    state_hash: hashState(state),
    nonce: login.nonce,
    code_verifier: login.codeVerifier,
    return_to: login.returnTo,
    expires_at: new Date(now + LOGIN_TTL_MS),
  });
}

/** Removes the pending login of `state` and returns it, or undefined when unknown or expired. */
export async function takePendingLogin(ex: Executor, state: string): Promise<PendingLogin | undefined> {
  const [row] = await ex
    .delete(oidcLogins)
    .where(eq(oidcLogins.state_hash, hashState(state)))
    .returning();
  if (!row || row.expires_at.getTime() <= Date.now()) return undefined;
  return { nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to ?? '/' };
}
