/**
 * Users as the identity provider describes them: one row per issuer + subject (the only stable
 * identity OIDC gives; emails change), updated at every login with the current profile and roles.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { users } from '../db/tables.js';

export interface LoginIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  nickname: string | null;
  isAdmin: boolean;
  isEditor: boolean;
}

/** Creates the user or refreshes its profile and roles; returns the user's id. */
export async function upsertUser(ex: Executor, identity: LoginIdentity): Promise<string> {
  const profile = {
    email: identity.email,
    name: identity.name,
    nickname: identity.nickname,
    is_admin: identity.isAdmin,
    is_editor: identity.isEditor,
    last_login_at: sql`now()`,
    roles_checked_at: sql`now()`,
  };
  const [row] = await ex
    .insert(users)
    .values({ issuer: identity.issuer, subject: identity.subject, ...profile })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: { ...profile, updated_at: sql`now()` },
    })
    .returning({ id: users.id });
  return row!.id;
}
