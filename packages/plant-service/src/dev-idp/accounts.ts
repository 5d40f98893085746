/**
 * The development provider's people. Any login name signs in (any password); `admin` and
 * `editor` are the demo administrator and editor, every other name is a plain reader.
 */

/** Claims of one account; `sub` is the login name. */
export type DevAccountClaims = Record<string, unknown>;

export const DEV_ADMIN_GROUP = 'plant-admins';
export const DEV_EDITOR_GROUP = 'plant-editors';

export function demoAccounts(): Map<string, DevAccountClaims> {
  return new Map<string, DevAccountClaims>([
    [
      'admin',
      {
        email: 'admin@example.org',
        email_verified: true,
        name: 'Demo Admin',
        nickname: 'admin',
        groups: [DEV_ADMIN_GROUP],
      },
    ],
    [
      'editor',
      {
        email: 'editor@example.org',
        email_verified: true,
        name: 'Demo Editor',
        nickname: 'editor',
        groups: [DEV_EDITOR_GROUP],
      },
    ],
  ]);
}

/** Any other login name: a reader with an address under example.org. */
export function readerAccount(login: string): DevAccountClaims {
  const local =
    login
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .slice(0, 64) || 'reader';
  return { email: `${local}@example.org`, email_verified: true, name: login, nickname: local, groups: [] };
}
