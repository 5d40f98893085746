/**
 * Test sessions, written straight into the users and sessions tables (never through an HTTP
 * backdoor): a user with the given roles and a live session; returns the cookie value.
 */
import { randomUUID } from 'node:crypto';
import { createSession } from '../../src/auth/session-store.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { users } from '../../src/db/tables.js';

export async function signIn(
  database: Database,
  config: Config,
  roles: { admin?: boolean; editor?: boolean } = {},
): Promise<string> {
  const subject = randomUUID();
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: 'https://test-issuer.invalid',
      subject,
      email: `${subject}@example.test`,
      name: 'Test User',
      is_admin: roles.admin ?? false,
      is_editor: roles.editor ?? false,
    })
    .returning({ id: users.id });
  return createSession(database.db, user!.id, { maxMs: config.sessionMaxMs });
}
