/**
 * Creates a service account in the accounts file and prints its password once.
 *
 *   npm run account -w packages/npc-plugin -- <username> [--permission <node>]... [--group <group>]...
 *
 * Without --permission or --group the account gets `<plugin_id>.web.*` (every NPC endpoint). The file
 * is NPC_ACCOUNTS_FILE (default npc-accounts.json in the current directory); it is created if missing.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.js';
import { createAccount } from '../web-server/accounts.js';

export async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      permission: { type: 'string', multiple: true, short: 'p' },
      group: { type: 'string', multiple: true, short: 'g' },
      file: { type: 'string', short: 'f' },
    },
  });
  const [username] = positionals;
  if (!username || positionals.length > 1) {
    throw new ConfigError(
      ['usage: <username> [--permission <node>]... [--group <group>]... [--file <path>]'],
      'create-account',
    );
  }
  const file = values.file ?? env.NPC_ACCOUNTS_FILE ?? 'npc-accounts.json';
  const permissions = values.permission ?? [];
  const groups = values.group ?? [];
  if (permissions.length === 0 && groups.length === 0) permissions.push(`${pluginId()}.web.*`);
  const password = await createAccount(file, { username, groups, permissions });
  return [
    `Created account "${username}" in ${file}`,
    `  permissions: ${permissions.join(', ') || '(none)'}${groups.length ? `; groups: ${groups.join(', ')}` : ''}`,
    `  password: ${password}`,
    'The password is shown only now; the file keeps a PBKDF2 hash.',
  ].join('\n');
}

/** The plugin id from the descriptor source (the CLI needs no build). */
function pluginId(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugin.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run(process.argv.slice(2), process.env).then(
    (text) => console.log(text),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
