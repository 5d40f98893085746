/**
 * Users as the identity provider describes them: one row per issuer + subject (the only stable
 * identity OIDC gives; emails change), updated at every login with the current profile and roles,
 * and disabled or enabled by an administrator. Queries only.
 */
import { asc, eq, sql } from 'drizzle-orm';
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

/**
 * Creates the user or refreshes its profile and roles; returns the user's id and whether an
 * administrator disabled it.
 */
export async function upsertUser(
  ex: Executor,
  identity: LoginIdentity,
): Promise<{ id: string; disabled: boolean }> {
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
    .returning({ id: users.id, disabled_at: users.disabled_at });
  return { id: row!.id, disabled: row!.disabled_at !== null };
}

export interface UserRecord {
  id: string;
  email: string;
  name: string | null;
  nickname: string | null;
  admin: boolean;
  editor: boolean;
  created_at: Date;
  last_login_at: Date | null;
  roles_checked_at: Date;
  disabled_at: Date | null;
  disabled_by: string | null;
}

const recordColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  nickname: users.nickname,
  admin: users.is_admin,
  editor: users.is_editor,
  created_at: users.created_at,
  last_login_at: users.last_login_at,
  roles_checked_at: users.roles_checked_at,
  disabled_at: users.disabled_at,
  disabled_by: users.disabled_by,
};

/** Every user, by email. */
export async function listUsers(ex: Executor): Promise<UserRecord[]> {
  return ex.select(recordColumns).from(users).orderBy(asc(users.email), asc(users.id));
}

/**
 * Disables the user (by `adminId`; an already disabled user keeps the first date and admin) or,
 * with adminId null, enables it; undefined when there is no such user.
 */
export async function setUserDisabled(
  ex: Executor,
  id: string,
  adminId: string | null,
): Promise<UserRecord | undefined> {
  const set =
    adminId === null
      ? { disabled_at: null, disabled_by: null }
      : {
          disabled_at: sql`coalesce(${users.disabled_at}, now())`,
          disabled_by: sql`case when ${users.disabled_at} is null then ${adminId}::uuid else ${users.disabled_by} end`,
        };
  const [row] = await ex
    .update(users)
    .set({ ...set, updated_at: sql`now()` })
    .where(eq(users.id, id))
    .returning(recordColumns);
  return row;
}
