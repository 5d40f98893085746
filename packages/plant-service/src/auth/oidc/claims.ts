/**
 * What this service reads from the provider's claims: the profile (email, name, nickname) and
 * the roles (admin, editor). The ID token is read first; userinfo fills what it lacks.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims
 */
import type { RoleRules } from '../auth-config.js';

export type Claims = Record<string, unknown>;

export interface Profile {
  email: string;
  /** `email_verified` from the same source as `email`. */
  emailVerified: boolean;
  name: string | null;
  /** `nickname`, else `preferred_username` (what Keycloak and others send instead). */
  nickname: string | null;
}

export interface Roles {
  admin: boolean;
  editor: boolean;
}

const MAX_EMAIL = 320;
const MAX_NAME = 200;

/** True when the ID token lacks a claim this service reads, so userinfo is worth a request. */
export function needsUserinfo(
  idToken: Claims,
  wanted: { groupsClaim: string; wantGroups: boolean },
): boolean {
  return (
    typeof idToken.email !== 'string' ||
    typeof idToken.name !== 'string' ||
    (typeof idToken.nickname !== 'string' && typeof idToken.preferred_username !== 'string') ||
    (wanted.wantGroups && claimAt(idToken, wanted.groupsClaim) === undefined)
  );
}

/** The profile, or undefined when neither source carries an email address. */
export function readProfile(idToken: Claims, userinfo: Claims = {}): Profile | undefined {
  const source = isEmail(idToken.email) ? idToken : isEmail(userinfo.email) ? userinfo : undefined;
  if (!source) return undefined;
  return {
    email: (source.email as string).trim(),
    emailVerified: isTrue(source.email_verified),
    name: text(idToken.name) ?? text(userinfo.name),
    nickname:
      text(idToken.nickname) ??
      text(userinfo.nickname) ??
      text(idToken.preferred_username) ??
      text(userinfo.preferred_username),
  };
}

/** The user's groups from the configured claim (ID token first): an array of strings or one string. */
export function readGroups(claimName: string, idToken: Claims, userinfo: Claims = {}): string[] {
  const value = claimAt(idToken, claimName) ?? claimAt(userinfo, claimName);
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return [];
}

/**
 * Admin: a verified email listed in ADMIN_EMAILS, or a group in OIDC_ADMIN_GROUPS. Editor: a
 * verified email in EDITOR_EMAILS, or a group in OIDC_EDITOR_GROUPS. Evaluated at every login,
 * so a change at the provider takes effect at the user's next login (or when the roles lapse).
 */
export function rolesFor(profile: Profile, groups: readonly string[], rules: RoleRules): Roles {
  const email = profile.emailVerified ? profile.email.toLowerCase() : undefined;
  const listed = (emails: readonly string[]) => email !== undefined && emails.includes(email);
  return {
    admin: listed(rules.adminEmails) || groups.some((g) => rules.adminGroups.includes(g)),
    editor: listed(rules.editorEmails) || groups.some((g) => rules.editorGroups.includes(g)),
  };
}

/** A claim by its exact name, else by a dotted path into nested objects. */
function claimAt(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

function isEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_EMAIL && /^[^@\s]+@[^@\s]+$/.test(value.trim());
}

/** Some providers (e.g. Amazon Cognito) send booleans as strings. */
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, MAX_NAME) : null;
}
