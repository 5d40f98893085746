import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../../src/web-server/password-hash.js';

export interface TestAccount {
  username: string;
  password: string;
  permissions?: string[];
  groups?: string[];
}

/** Writes an accounts file with cheap PBKDF2 hashes (1000 iterations) and returns its path. */
export async function writeAccounts(
  accounts: TestAccount[],
  groups: Record<string, string[]> = { anonymous: [] },
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'npc-accounts-'));
  const file = join(dir, 'accounts.json');
  const body = {
    groups,
    accounts: await Promise.all(
      accounts.map(async (account) => ({
        username: account.username,
        password_hash: await hashPassword(account.password, 1000),
        groups: account.groups ?? [],
        permissions: account.permissions ?? [],
      })),
    ),
  };
  await writeFile(file, JSON.stringify(body));
  return file;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
