import { isIP } from 'node:net';
import { ConfigError, type Env, envEnum, readEnv } from '@plants/common/env';
import { Type } from 'typebox';
import { TOOL_NAMES, type ToolName } from './core/tools/tool-schemas.js';

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
    readonly pickupItems: boolean;
  };
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly accountsFile: string;
    readonly tls: { readonly cert: string; readonly key: string } | null;
    readonly loginFailuresPerMinute: number;
    readonly loginFailuresPerAddressPerMinute: number;
    readonly loginFailuresPerAccountPerMinute: number;
    /**
     * Whose X-Forwarded-For is believed, in Fastify's `trustProxy` terms: false = nobody's (the
     * socket's address is the client), a list = proxies at these addresses or ranges.
     */
    readonly trustProxy: false | readonly string[];
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
    /** Names that may make the NPC act through tools; null = everyone (`*`); unset = nobody. */
    readonly toolPlayers: readonly string[] | null;
    readonly maxToolCalls: number;
    readonly operatorHoldMs: number;
    readonly toolFollowTimeoutMs: number;
    readonly followLeash: number;
    readonly maxQuickExchanges: number;
    readonly replyMaxChars: number;
    readonly replyMaxLines: number;
    readonly llmConcurrency: number;
    readonly llmDailyTokens: number | null;
  };
  readonly logLevel: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const USERNAME = '^[A-Za-z0-9_]{3,16}$';
const int = (minimum: number, maximum: number, defaultValue: number) =>
  Type.Integer({ minimum, maximum, default: defaultValue });

/** Every variable the NPC reads but the two lists where "set but empty" means none (read below). */
const EnvSchema = Type.Object({
  MC_HOST: Type.String({ default: '127.0.0.1' }),
  MC_PORT: int(1, 65535, 25565),
  // Only the shape here; which versions the game library supports is asked of it when the Minecraft
  // adapter is built at start (adapters/minecraft/versions.ts), so a release like 26.1 is not refused
  // by a pattern written for 1.x.
  MC_VERSION: Type.String({
    pattern: '^\\d{1,2}\\.\\d{1,2}(\\.\\d{1,2})?$',
    default: '1.20.4',
    expected: 'a version like 1.20.4',
  }),
  MC_USERNAME: Type.String({ pattern: USERNAME, default: 'NPC', expected: '3-16 letters, digits or _' }),
  MC_AUTH: envEnum(['offline', 'microsoft'], 'offline'),
  NPC_PICKUP_ITEMS: Type.Boolean({ default: false }),
  NPC_HTTP_HOST: Type.String({ default: '127.0.0.1' }),
  // Unset: the web-server plugin's convention, the game port + 3.
  NPC_HTTP_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  NPC_ACCOUNTS_FILE: Type.String({ default: 'npc-accounts.json' }),
  NPC_TLS_CERT: Type.Optional(Type.String()),
  NPC_TLS_KEY: Type.Optional(Type.String()),
  NPC_LOGIN_FAILURES_PER_MINUTE: int(1, 10_000, 5),
  NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: int(1, 100_000, 30),
  NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: int(1, 100_000, 20),
  // Read by trustProxy() below: a list of proxy addresses.
  NPC_TRUST_PROXY: Type.Optional(Type.String()),
  LLM_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]', expected: 'an http(s) URL' })),
  LLM_MODEL: Type.String({ default: 'gpt-4o-mini' }),
  LLM_API_KEY: Type.Optional(Type.String()),
  LLM_TIMEOUT_MS: int(100, 300_000, 20_000),
  LLM_MAX_RETRIES: int(0, 10, 2),
  LLM_MAX_RESPONSE_BYTES: int(1024, 16_777_216, 262_144),
  NPC_AUTO_SPAWN: Type.Boolean({ default: true }),
  NPC_CHAT_RADIUS: int(1, 256, 16),
  NPC_SYSTEM_PROMPT: Type.Optional(Type.String()),
  NPC_MEMORY_TURNS: int(0, 50, 6),
  NPC_REPLIES_PER_MINUTE: int(1, 600, 6),
  NPC_IGNORED_PLAYERS: Type.Optional(Type.String()),
  NPC_RECONNECT_MIN_MS: int(50, 600_000, 1000),
  NPC_RECONNECT_MAX_MS: int(50, 3_600_000, 30_000),
  NPC_CONNECT_TIMEOUT_MS: int(1000, 600_000, 30_000),
  NPC_MOVE_TIMEOUT_MS: int(1000, 3_600_000, 60_000),
  NPC_FOLLOW_TIMEOUT_MS: int(1000, 86_400_000, 1_800_000),
  NPC_MAX_MOVE_DISTANCE: int(1, 10_000, 128),
  NPC_WORLD_RADIUS_MAX: int(1, 256, 64),
  NPC_MAX_TOOL_CALLS: int(1, 10, 3),
  NPC_OPERATOR_HOLD_MS: int(0, 3_600_000, 60_000),
  NPC_TOOL_FOLLOW_TIMEOUT_MS: int(1000, 86_400_000, 300_000),
  NPC_FOLLOW_LEASH: int(1, 10_000, 48),
  NPC_LOOP_MAX_EXCHANGES: int(1, 1000, 12),
  NPC_REPLY_MAX_CHARS: int(1, 4000, 600),
  NPC_REPLY_MAX_LINES: int(1, 20, 4),
  NPC_LLM_CONCURRENCY: int(1, 64, 4),
  NPC_LLM_DAILY_TOKENS: Type.Optional(Type.Integer({ minimum: 1, maximum: 1e12 })),
  LOG_LEVEL: envEnum(LOG_LEVELS, 'info'),
});

/** A comma-separated list; null when unset, [] when set to the empty string. */
function list(env: Env, name: string): string[] | null {
  const value = env[name];
  if (value === undefined) return null;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Reads and validates the environment; throws a ConfigError listing every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const { values: read, problems } = readEnv(EnvSchema, env);
  const player = new RegExp(USERNAME);
  const cert = read.NPC_TLS_CERT ?? null;
  const key = read.NPC_TLS_KEY ?? null;
  if ((cert === null) !== (key === null)) problems.push('NPC_TLS_CERT and NPC_TLS_KEY: set both or neither');
  if (read.NPC_RECONNECT_MAX_MS < read.NPC_RECONNECT_MIN_MS) {
    problems.push('NPC_RECONNECT_MAX_MS: must not be smaller than NPC_RECONNECT_MIN_MS');
  }
  if (read.NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE < read.NPC_LOGIN_FAILURES_PER_MINUTE) {
    problems.push(
      'NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: must not be smaller than NPC_LOGIN_FAILURES_PER_MINUTE',
    );
  }
  if (read.NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE < read.NPC_LOGIN_FAILURES_PER_MINUTE) {
    problems.push(
      'NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE: must not be smaller than NPC_LOGIN_FAILURES_PER_MINUTE',
    );
  }
  const proxy = trustProxy(read.NPC_TRUST_PROXY, problems);
  if (read.LLM_BASE_URL !== undefined && !URL.canParse(read.LLM_BASE_URL)) {
    problems.push(
      `LLM_BASE_URL: ${JSON.stringify(read.LLM_BASE_URL)} is not valid (expected an http(s) URL)`,
    );
  }
  const ignored = list(env, 'NPC_IGNORED_PLAYERS') ?? [];
  for (const name of ignored) {
    if (!player.test(name))
      problems.push(`NPC_IGNORED_PLAYERS: ${JSON.stringify(name)} is not a player name`);
  }
  const tools = list(env, 'NPC_TOOLS') ?? [...TOOL_NAMES];
  for (const tool of tools) {
    if (!(TOOL_NAMES as readonly string[]).includes(tool))
      problems.push(`NPC_TOOLS: ${JSON.stringify(tool)} is not one of ${TOOL_NAMES.join(', ')}`);
  }
  // Unset means nobody: letting every player steer the NPC has to be asked for, with `*`.
  const toolPlayerList = list(env, 'NPC_TOOL_PLAYERS') ?? [];
  const everyone = toolPlayerList.includes('*');
  if (everyone && toolPlayerList.length > 1) problems.push('NPC_TOOL_PLAYERS: "*" stands alone');
  for (const name of everyone ? [] : toolPlayerList) {
    if (!player.test(name)) problems.push(`NPC_TOOL_PLAYERS: ${JSON.stringify(name)} is not a player name`);
  }
  const toolPlayers = everyone ? null : toolPlayerList;
  if (problems.length > 0) throw new ConfigError(problems);

  const config: Config = {
    minecraft: {
      host: read.MC_HOST,
      port: read.MC_PORT,
      version: read.MC_VERSION,
      username: read.MC_USERNAME,
      auth: read.MC_AUTH,
      pickupItems: read.NPC_PICKUP_ITEMS,
    },
    http: {
      host: read.NPC_HTTP_HOST,
      port: read.NPC_HTTP_PORT ?? Math.min(read.MC_PORT + 3, 65535),
      accountsFile: read.NPC_ACCOUNTS_FILE,
      tls: cert !== null && key !== null ? { cert, key } : null,
      loginFailuresPerMinute: read.NPC_LOGIN_FAILURES_PER_MINUTE,
      loginFailuresPerAddressPerMinute: read.NPC_LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE,
      loginFailuresPerAccountPerMinute: read.NPC_LOGIN_FAILURES_PER_ACCOUNT_PER_MINUTE,
      trustProxy: proxy,
    },
    llm: {
      baseUrl: read.LLM_BASE_URL?.replace(/\/+$/, '') ?? null,
      model: read.LLM_MODEL,
      apiKey: read.LLM_API_KEY ?? null,
      timeoutMs: read.LLM_TIMEOUT_MS,
      maxRetries: read.LLM_MAX_RETRIES,
      maxResponseBytes: read.LLM_MAX_RESPONSE_BYTES,
    },
    npc: {
      autoSpawn: read.NPC_AUTO_SPAWN,
      chatRadius: read.NPC_CHAT_RADIUS,
      systemPrompt: read.NPC_SYSTEM_PROMPT ?? DEFAULT_SYSTEM_PROMPT,
      memoryTurns: read.NPC_MEMORY_TURNS,
      repliesPerMinute: read.NPC_REPLIES_PER_MINUTE,
      ignoredPlayers: ignored,
      reconnectMinMs: read.NPC_RECONNECT_MIN_MS,
      reconnectMaxMs: read.NPC_RECONNECT_MAX_MS,
      connectTimeoutMs: read.NPC_CONNECT_TIMEOUT_MS,
      moveTimeoutMs: read.NPC_MOVE_TIMEOUT_MS,
      followTimeoutMs: read.NPC_FOLLOW_TIMEOUT_MS,
      maxMoveDistance: read.NPC_MAX_MOVE_DISTANCE,
      worldRadiusMax: read.NPC_WORLD_RADIUS_MAX,
      tools: [...new Set(tools)] as ToolName[],
      toolPlayers,
      maxToolCalls: read.NPC_MAX_TOOL_CALLS,
      operatorHoldMs: read.NPC_OPERATOR_HOLD_MS,
      toolFollowTimeoutMs: read.NPC_TOOL_FOLLOW_TIMEOUT_MS,
      followLeash: read.NPC_FOLLOW_LEASH,
      maxQuickExchanges: read.NPC_LOOP_MAX_EXCHANGES,
      replyMaxChars: read.NPC_REPLY_MAX_CHARS,
      replyMaxLines: read.NPC_REPLY_MAX_LINES,
      llmConcurrency: read.NPC_LLM_CONCURRENCY,
      llmDailyTokens: read.NPC_LLM_DAILY_TOKENS ?? null,
    },
    logLevel: read.LOG_LEVEL,
  };
  return deepFreeze(config);
}

/** Names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `NPC_TRUST_PROXY`: unset or empty trusts no proxy; otherwise a comma list of proxy addresses, CIDR
 * ranges or proxy-addr's range names. A hop count is refused: it believes whatever a client that
 * reaches the port directly writes into X-Forwarded-For (Fastify 5 no longer honours one either).
 */
function trustProxy(value: string | undefined, problems: string[]): false | string[] {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  if (/^\d+$/.test(text)) {
    problems.push(
      `NPC_TRUST_PROXY: ${text} looks like a hop count, which would believe any client's X-Forwarded-For; list the proxies' addresses (e.g. 127.0.0.1 or 10.0.0.0/8)`,
    );
    return false;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (PROXY_RANGES.includes(entry) || (family !== 0 && prefixOk && rest.length === 0)) continue;
    problems.push(
      `NPC_TRUST_PROXY: ${JSON.stringify(entry)} is not an address, a CIDR range or one of ${PROXY_RANGES.join(', ')}`,
    );
  }
  return entries;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
