import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/create-account.js';
import { ConfigError } from '../../src/errors.js';
import { AccountStore, createAccount, loadAccounts, parseAccounts } from '../../src/web-server/accounts.js';
import { packageRoot } from '../helpers/npc-process.js';

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'npc-accounts-')), 'accounts.json');

describe('accounts file', () => {
  it('creates the file with an empty anonymous group, mode 0600, and a verifiable account', async () => {
    const file = await tempFile();
    const password = await createAccount(file, {
      username: 'ops',
      groups: [],
      permissions: ['npc.web.*'],
      iterations: 1000,
    });
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored.groups).toEqual({ anonymous: [] });
    expect(stored.accounts[0].password_hash).toMatch(/^\$pbkdf2-sha256\$i=1000\$/);
    expect(JSON.stringify(stored)).not.toContain(password);
    const store = await loadAccounts(file);
    expect(await store.verify('ops', password)).toEqual({ username: 'ops', nodes: ['npc.web.*'] });
    expect(await store.verify('ops', 'wrong')).toBeNull();
    expect(await store.verify('nobody', password)).toBeNull();
    // A remembered success still checks the password.
    expect(await store.verify('ops', password)).not.toBeNull();
    expect(await store.verify('ops', `${password}x`)).toBeNull();
  });

  it('refuses a duplicate username and an unknown group', async () => {
    const file = await tempFile();
    await createAccount(file, { username: 'a', groups: [], permissions: [], iterations: 1000 });
    await expect(
      createAccount(file, { username: 'a', groups: [], permissions: [], iterations: 1000 }),
    ).rejects.toThrow(/already exists/);
    await expect(
      createAccount(file, { username: 'b', groups: ['admins'], permissions: [], iterations: 1000 }),
    ).rejects.toThrow(/unknown group admins/);
  });

  it('gives group members the group nodes plus the anonymous ones', async () => {
    const file = await tempFile();
    await writeFile(
      file,
      JSON.stringify({ groups: { anonymous: ['npc.web.status'], ops: ['npc.web.move'] }, accounts: [] }),
    );
    const password = await createAccount(file, {
      username: 'g',
      groups: ['ops'],
      permissions: [],
      iterations: 1000,
    });
    const store = await loadAccounts(file);
    expect((await store.verify('g', password))?.nodes).toEqual(
      expect.arrayContaining(['npc.web.move', 'npc.web.status']),
    );
    expect(store.anonymousMay('npc.web.status')).toBe(true);
    expect(new AccountStore({ groups: {}, accounts: [] }).anonymousMay('npc.web.status')).toBe(false);
  });

  it('lists every problem of a bad file', () => {
    const bad = JSON.stringify({
      groups: { anonymous: [] },
      accounts: [
        { username: 'x', password_hash: 'plain', groups: [], permissions: [] },
        {
          username: 'y',
          password_hash: `$2b$10$${'a'.repeat(53)}`,
          groups: ['missing'],
          permissions: ['Bad Node'],
        },
      ],
    });
    expect(() => parseAccounts(bad, 'f')).toThrow(ConfigError);
    const dup = JSON.stringify({
      groups: {},
      accounts: [
        { username: 'x', password_hash: `$2b$10$${'a'.repeat(53)}`, groups: ['nope'], permissions: [] },
        { username: 'x', password_hash: `$2b$10$${'a'.repeat(53)}`, groups: [], permissions: [] },
      ],
    });
    try {
      parseAccounts(dup, 'f');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'account x: unknown group nope',
        'account x appears twice',
      ]);
    }
    expect.assertions(2);
  });

  it('explains a missing file with the command that creates one', async () => {
    await expect(loadAccounts('/nonexistent/accounts.json')).rejects.toThrow(/npm run account/);
  });
});

describe('account CLI', () => {
  it('grants the NPC endpoints by default and prints the password once', async () => {
    const file = await tempFile();
    const text = await run(['alice', '--file', file], {});
    const password = /password: (\S+)/.exec(text)?.[1];
    expect(password).toBeDefined();
    expect(text.split(password!).length - 1).toBe(1);
    expect(text).toContain('npc.web.*');
    expect(await (await loadAccounts(file)).verify('alice', password!)).not.toBeNull();
  });

  it('runs as a command with NPC_ACCOUNTS_FILE and fails clearly without a username', async () => {
    const file = await tempFile();
    const ok = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/create-account.ts', 'bob', '-p', 'npc.web.status'],
      {
        cwd: packageRoot,
        env: { ...process.env, NPC_ACCOUNTS_FILE: file },
        encoding: 'utf8',
      },
    );
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/Created account "bob"/);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/create-account.ts'], {
      cwd: packageRoot,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/usage: <username>/);
  });
});
