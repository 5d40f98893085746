import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { ConfigError } from '../errors.js';
import { PasswordCheck } from './password-check.js';
import { hashPassword, PBKDF2_HASH, PBKDF2_ITERATIONS, unmatchableHash } from './password-hash.js';
import { grants, PERMISSION_PATTERN } from './permissions.js';

/** The group whose nodes apply to requests without credentials (empty by default). */
export const ANONYMOUS_GROUP = 'anonymous';

const Node = Type.String({ pattern: PERMISSION_PATTERN });
const Name = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' });

/** bcrypt, as files written before PBKDF2 hold (and `htpasswd -B` writes). */
const BCRYPT_HASH = '\\$2[aby]\\$\\d{2}\\$[./A-Za-z0-9]{53}';

/**
 * The accounts file (`NPC_ACCOUNTS_FILE`): service accounts with password hashes (PBKDF2 for new
 * accounts, bcrypt still accepted), groups of nodes.
 */
export const AccountsFileSchema = Type.Object(
  {
    groups: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }), Type.Array(Node)),
    accounts: Type.Array(
      Type.Object(
        {
          username: Name,
          password_hash: Type.String({ pattern: `^(${PBKDF2_HASH}|${BCRYPT_HASH})$` }),
          groups: Type.Array(Name),
          permissions: Type.Array(Node),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AccountsFile = Static<typeof AccountsFileSchema>;

const checkAccounts = Compile(AccountsFileSchema);

export interface Principal {
  username: string;
  nodes: readonly string[];
}

/** How long a verified password is remembered, so the hash does not run on every request. */
const VERIFIED_TTL_MS = 5 * 60_000;

/** Validated, in-memory accounts; reload by restarting the process. */
export class AccountStore {
  readonly #accounts: Map<string, AccountsFile['accounts'][number]>;
  readonly #groups: Map<string, readonly string[]>;
  readonly #verified = new Map<string, { digest: Buffer; expires: number }>();
  readonly #cacheKey = randomBytes(32);
  readonly #check = new PasswordCheck();
  /** What an unknown username is checked against, so a miss costs as much time as a wrong password. */
  readonly #unknown = unmatchableHash();

  constructor(file: AccountsFile) {
    this.#accounts = new Map(file.accounts.map((account) => [account.username, account]));
    this.#groups = new Map(Object.entries(file.groups));
  }

  /** Nodes granted without credentials. */
  get anonymousNodes(): readonly string[] {
    return this.#groups.get(ANONYMOUS_GROUP) ?? [];
  }

  anonymousMay(node: string): boolean {
    return grants(this.anonymousNodes, node);
  }

  /** Returns the principal for valid credentials, else null. */
  async verify(username: string, password: string): Promise<Principal | null> {
    const account = this.#accounts.get(username);
    const digest = createHash('sha256').update(this.#cacheKey).update(`${username}\0${password}`).digest();
    const cached = this.#verified.get(username);
    if (account && cached && cached.expires > Date.now() && timingSafeEqual(cached.digest, digest)) {
      return this.#principal(account);
    }
    const hash = account?.password_hash ?? this.#unknown;
    const ok = await this.#check.compare(password, hash);
    if (!account || !ok) return null;
    this.#verified.set(username, { digest, expires: Date.now() + VERIFIED_TTL_MS });
    return this.#principal(account);
  }

  /** Stops the password-check thread. */
  close(): Promise<void> {
    return this.#check.close();
  }

  #principal(account: AccountsFile['accounts'][number]): Principal {
    const nodes = [...account.permissions, ...this.anonymousNodes];
    for (const group of account.groups) nodes.push(...(this.#groups.get(group) ?? []));
    return { username: account.username, nodes };
  }
}

/** Parses and validates an accounts file's text; every problem is listed. */
export function parseAccounts(text: string, source: string): AccountsFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError([`not JSON (${(cause as Error).message})`], `Invalid accounts file ${source}`);
  }
  if (!checkAccounts.Check(parsed)) {
    const problems = [...checkAccounts.Errors(parsed)]
      .filter((error) => error.keyword !== 'boolean')
      .map((error) => `${error.instancePath || '(root)'} ${error.message}`);
    throw new ConfigError(problems, `Invalid accounts file ${source}`);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const account of parsed.accounts) {
    if (seen.has(account.username)) problems.push(`account ${account.username} appears twice`);
    seen.add(account.username);
    for (const group of account.groups) {
      if (!(group in parsed.groups)) problems.push(`account ${account.username}: unknown group ${group}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems, `Invalid accounts file ${source}`);
  return parsed;
}

export async function loadAccounts(file: string): Promise<AccountStore> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    const hint = missing
      ? 'not found; create one with "npm run account -w packages/npc-plugin -- <name>"'
      : String(cause);
    throw new ConfigError([`NPC_ACCOUNTS_FILE=${file}: ${hint}`], 'Cannot load the accounts file');
  }
  return new AccountStore(parseAccounts(text, file));
}

export interface NewAccount {
  username: string;
  groups: readonly string[];
  permissions: readonly string[];
  /** PBKDF2 iterations; PBKDF2_ITERATIONS by default (tests use fewer). */
  iterations?: number;
}

/**
 * Adds an account to the file (creating it with an empty anonymous group if missing) and returns its
 * generated password, which is stored nowhere else. The file is replaced atomically, mode 0600.
 */
export async function createAccount(file: string, account: NewAccount): Promise<string> {
  let current: AccountsFile = { groups: { [ANONYMOUS_GROUP]: [] }, accounts: [] };
  try {
    current = parseAccounts(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (current.accounts.some((existing) => existing.username === account.username)) {
    throw new ConfigError([`account ${account.username} already exists`], 'Cannot create the account');
  }
  const unknown = account.groups.filter((group) => !(group in current.groups));
  if (unknown.length > 0) {
    throw new ConfigError(
      [`unknown group ${unknown.join(', ')}; add it to "groups" first`],
      'Cannot create the account',
    );
  }
  const password = randomBytes(18).toString('base64url');
  const next: AccountsFile = {
    groups: current.groups,
    accounts: [
      ...current.accounts,
      {
        username: account.username,
        password_hash: await hashPassword(password, account.iterations ?? PBKDF2_ITERATIONS),
        groups: [...account.groups],
        permissions: [...account.permissions],
      },
    ],
  };
  const text = `${JSON.stringify(next, null, 2)}\n`;
  parseAccounts(text, file);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await rename(temporary, file);
  return password;
}
