import { TOOL_NAMES, type ToolName } from './core/tools/tool-schemas.js';
import { StartupError } from './errors.js';

/** Default system prompt; `NPC_SYSTEM_PROMPT` replaces it. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are {name}, a friendly villager-like character living in a Minecraft world. ' +
  'Answer in one or two short sentences, in the language the player used. Stay in character; ' +
  'never mention being an AI model. What you currently perceive:\n{perception}';

/** Every setting of the NPC process, read from the environment once at start and frozen (STYLE habit 5). */
export interface Config {
  readonly minecraft: {
    readonly host: string;
    readonly port: number;
    readonly version: string;
    readonly username: string;
    readonly auth: 'offline' | 'microsoft';
  };
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly accountsFile: string;
    readonly tls: { readonly cert: string; readonly key: string } | null;
    readonly loginFailuresPerMinute: number;
    readonly loginFailuresPerAddressPerMinute: number;
  };
  readonly llm: {
    readonly baseUrl: string | null;
    readonly model: string;
    readonly apiKey: string | null;
    readonly timeoutMs: number;
    readonly maxRetries: number;
    readonly maxResponseBytes: number;
  };
  readonly npc: {
    readonly autoSpawn: boolean;
    readonly chatRadius: number;
    readonly systemPrompt: string;
    readonly memoryTurns: number;
    readonly repliesPerMinute: number;
    readonly ignoredPlayers: readonly string[];
    readonly reconnectMinMs: number;
    readonly reconnectMaxMs: number;
    readonly connectTimeoutMs: number;
    readonly moveTimeoutMs: number;
    readonly followTimeoutMs: number;
    readonly maxMoveDistance: number;
    readonly worldRadiusMax: number;
    readonly tools: readonly ToolName[];
    readonly toolPlayers: readonly string[] | null;
    readonly replyMaxChars: number;
    readonly replyMaxLines: number;
    readonly llmConcurrency: number;
    readonly llmDailyTokens: number | null;
  };
  readonly logLevel: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Collects one problem per bad variable instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string, pattern?: RegExp, hint?: string): string {
    const value = this.raw(name) ?? fallback;
    if (pattern && !pattern.test(value)) this.problems.push(`${name}=${JSON.stringify(value)}: ${hint}`);
    return value;
  }

  /** A comma-separated list; null when unset, [] when set to the empty string. */
  list(name: string): string[] | null {
    const value = this.env[name];
    if (value === undefined) return null;
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }

  optional(name: string): string | null {
    return this.raw(name) ?? null;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || parsed < min || parsed > max) {
      this.problems.push(`${name}=${JSON.stringify(value)}: must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return parsed;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name}=${JSON.stringify(value)}: must be true or false`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const value = this.raw(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name}=${JSON.stringify(value)}: must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return value as T;
  }

  url(name: string): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      return value.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name}=${JSON.stringify(value)}: must be an http(s) URL`);
      return null;
    }
  }
}

const USERNAME = /^[A-Za-z0-9_]{3,16}$/;

/** Reads and validates the environment; throws a StartupError listing every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const mcPort = read.int('MC_PORT', 25565, 1, 65535);
  const cert = read.optional('NPC_TLS_CERT');
  const key = read.optional('NPC_TLS_KEY');
  if ((cert === null) !== (key === null)) {
    read.problems.push('NPC_TLS_CERT and NPC_TLS_KEY: set both or neither');
  }
  const reconnectMinMs = read.int('NPC_RECONNECT_MIN_MS', 1000, 50, 600_000);
  const reconnectMaxMs = read.int('NPC_RECONNECT_MAX_MS', 30_000, 50, 3_600_000);
  if (reconnectMaxMs < reconnectMinMs) {
    read.problems.push('NPC_RECONNECT_MAX_MS: must not be smaller than NPC_RECONNECT_MIN_MS');
  }
  const loginFailuresPerMinute = read.int('NPC_LOGIN_FAILURES_PER_MINUTE', 5, 1, 10_000);
  const loginFailuresPerAddressPerMinute = read.int(
    'NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE',
    30,
    1,
    100_000,
  );
  if (loginFailuresPerAddressPerMinute < loginFailuresPerMinute) {
    read.problems.push(
      'NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: must not be smaller than NPC_LOGIN_FAILURES_PER_MINUTE',
    );
  }
  const ignored = (read.optional('NPC_IGNORED_PLAYERS') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  for (const name of ignored) {
    if (!USERNAME.test(name))
      read.problems.push(`NPC_IGNORED_PLAYERS: ${JSON.stringify(name)} is not a player name`);
  }

  const tools = read.list('NPC_TOOLS') ?? [...TOOL_NAMES];
  for (const tool of tools) {
    if (!(TOOL_NAMES as readonly string[]).includes(tool))
      read.problems.push(`NPC_TOOLS: ${JSON.stringify(tool)} is not one of ${TOOL_NAMES.join(', ')}`);
  }
  const toolPlayers = read.list('NPC_TOOL_PLAYERS');
  for (const name of toolPlayers ?? []) {
    if (!USERNAME.test(name))
      read.problems.push(`NPC_TOOL_PLAYERS: ${JSON.stringify(name)} is not a player name`);
  }
  const dailyTokens =
    read.optional('NPC_LLM_DAILY_TOKENS') === null ? null : read.int('NPC_LLM_DAILY_TOKENS', 0, 1, 1e12);

  const config: Config = {
    minecraft: {
      host: read.string('MC_HOST', '127.0.0.1'),
      port: mcPort,
      version: read.string('MC_VERSION', '1.20.4', /^1\.\d{1,2}(\.\d{1,2})?$/, 'must look like 1.20.4'),
      username: read.string('MC_USERNAME', 'NPC', USERNAME, 'must be 3-16 letters, digits or _'),
      auth: read.oneOf('MC_AUTH', 'offline', ['offline', 'microsoft'] as const),
    },
    http: {
      host: read.string('NPC_HTTP_HOST', '127.0.0.1'),
      // The web-server plugin listens on the game port + 3; 0 asks for an ephemeral port.
      port: read.int('NPC_HTTP_PORT', Math.min(mcPort + 3, 65535), 0, 65535),
      accountsFile: read.string('NPC_ACCOUNTS_FILE', 'npc-accounts.json'),
      tls: cert !== null && key !== null ? { cert, key } : null,
      loginFailuresPerMinute,
      loginFailuresPerAddressPerMinute,
    },
    llm: {
      baseUrl: read.url('LLM_BASE_URL'),
      model: read.string('LLM_MODEL', 'gpt-4o-mini'),
      apiKey: read.optional('LLM_API_KEY'),
      timeoutMs: read.int('LLM_TIMEOUT_MS', 20_000, 100, 300_000),
      maxRetries: read.int('LLM_MAX_RETRIES', 2, 0, 10),
      maxResponseBytes: read.int('LLM_MAX_RESPONSE_BYTES', 262_144, 1024, 16_777_216),
    },
    npc: {
      autoSpawn: read.bool('NPC_AUTO_SPAWN', true),
      chatRadius: read.int('NPC_CHAT_RADIUS', 16, 1, 256),
      systemPrompt: read.optional('NPC_SYSTEM_PROMPT') ?? DEFAULT_SYSTEM_PROMPT,
      memoryTurns: read.int('NPC_MEMORY_TURNS', 6, 0, 50),
      repliesPerMinute: read.int('NPC_REPLIES_PER_MINUTE', 6, 1, 600),
      ignoredPlayers: Object.freeze(ignored),
      reconnectMinMs,
      reconnectMaxMs,
      connectTimeoutMs: read.int('NPC_CONNECT_TIMEOUT_MS', 30_000, 1000, 600_000),
      moveTimeoutMs: read.int('NPC_MOVE_TIMEOUT_MS', 60_000, 1000, 3_600_000),
      followTimeoutMs: read.int('NPC_FOLLOW_TIMEOUT_MS', 1_800_000, 1000, 86_400_000),
      maxMoveDistance: read.int('NPC_MAX_MOVE_DISTANCE', 128, 1, 10_000),
      worldRadiusMax: read.int('NPC_WORLD_RADIUS_MAX', 64, 1, 256),
      tools: Object.freeze(
        [...new Set(tools)].filter((tool): tool is ToolName =>
          (TOOL_NAMES as readonly string[]).includes(tool),
        ),
      ),
      toolPlayers: toolPlayers === null ? null : Object.freeze(toolPlayers),
      replyMaxChars: read.int('NPC_REPLY_MAX_CHARS', 600, 1, 4000),
      replyMaxLines: read.int('NPC_REPLY_MAX_LINES', 4, 1, 20),
      llmConcurrency: read.int('NPC_LLM_CONCURRENCY', 4, 1, 64),
      llmDailyTokens: dailyTokens,
    },
    logLevel: read.oneOf('LOG_LEVEL', 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ] as const),
  };
  if (read.problems.length > 0) throw new StartupError(read.problems, 'Invalid configuration');
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
