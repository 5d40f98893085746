/**
 * Configuration: one schema over the environment, validated once at start and frozen.
 * Every variable is documented in the root README.
 */
import path from 'node:path';
import { ConfigError, envEnum, readEnv } from '@plants/common/env';
import { type Static, Type } from 'typebox';
import { type AuthConfig, AuthEnv, deriveAuthConfig } from './auth/auth-config.js';
import { WRITE_ACCESS } from './auth/auth-settings.js';
import { parseTrustProxy, type Timeouts, type TrustProxy } from './http/server-options.js';
import { deriveStorageConfig, type StorageConfig, StorageEnv } from './storage/storage-config.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DEMO_DATA: Type.Boolean({ default: true }),
  LOG_LEVEL: envEnum(LOG_LEVELS, 'info'),
  WRITE_ACCESS: envEnum(WRITE_ACCESS, 'groups'),
  SESSION_IDLE_DAYS: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 0.5 }),
  SESSION_MAX_DAYS: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 7 }),
  TOKEN_DEFAULT_DAYS: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 90 }),
  TOKEN_MAX_DAYS: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 365 }),
  ROLE_REFRESH_SECONDS: Type.Integer({ minimum: 0, maximum: 315_360_000, default: 86_400 }),
  HEADERS_TIMEOUT_SECONDS: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 10 }),
  REQUEST_TIMEOUT_SECONDS: Type.Number({ minimum: 0, maximum: 3600, default: 60 }),
  KEEP_ALIVE_TIMEOUT_SECONDS: Type.Number({ exclusiveMinimum: 0, maximum: 3600, default: 10 }),
  IDLE_TIMEOUT_SECONDS: Type.Number({ minimum: 0, maximum: 3600, default: 60 }),
  RESPONSE_CACHE_MB: Type.Integer({ minimum: 0, maximum: 4096, default: 16 }),
  HTTP_MAX_AGE_SECONDS: Type.Integer({ minimum: 0, maximum: 86_400, default: 0 }),
  METRICS_ENABLED: Type.Boolean({ default: true }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  ...AuthEnv,
  ...StorageEnv,
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absolute. Holds the embedded database (and, later, images). */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly demoData: boolean;
  readonly logLevel: Env['LOG_LEVEL'];
  /** Who may write: any signed-in user, users with the editor role, or admins only. */
  readonly writeAccess: Env['WRITE_ACCESS'];
  readonly sessionIdleMs: number;
  readonly sessionMaxMs: number;
  /** Lifetime of an API token created without `expires_at`, and the longest one accepted. */
  readonly tokenDefaultMs: number;
  readonly tokenMaxMs: number;
  /** How long roles confirmed at a sign-in count; 0: for ever. */
  readonly roleRefreshMs: number;
  /** Proxies trusted to set X-Forwarded-For (http/server-options.ts). */
  readonly trustProxy: TrustProxy;
  /** Header, request, keep-alive and idle timeouts of the HTTP server. */
  readonly timeouts: Timeouts;
  /** Bytes of public GET responses kept in memory (0: no response cache). */
  readonly responseCacheBytes: number;
  /** How long caches in front (a CDN, a reverse proxy) may reuse a public GET without asking (0: always ask). */
  readonly httpMaxAgeSeconds: number;
  /** Serve Prometheus metrics at GET /metrics on the service port. */
  readonly metricsEnabled: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  readonly metricsToken: string | undefined;
  /** OIDC login, public URL and origins, roles, rate limits, dev provider (auth/auth-config.ts). */
  readonly auth: AuthConfig;
  /** Object store, upload size limit, orphan sweep (storage/storage-config.ts). */
  readonly storage: StorageConfig;
}

export { ConfigError };

const DAY_MS = 86_400_000;

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { values: parsed, problems } = readEnv(EnvSchema, env);
  if (parsed.SESSION_MAX_DAYS < parsed.SESSION_IDLE_DAYS) {
    problems.push('SESSION_MAX_DAYS: must not be shorter than SESSION_IDLE_DAYS');
  }
  if (parsed.TOKEN_MAX_DAYS < parsed.TOKEN_DEFAULT_DAYS) {
    problems.push('TOKEN_MAX_DAYS: must not be shorter than TOKEN_DEFAULT_DAYS');
  }
  const headersMs = parsed.HEADERS_TIMEOUT_SECONDS * 1000;
  const requestMs = parsed.REQUEST_TIMEOUT_SECONDS * 1000;
  if (requestMs > 0 && requestMs < headersMs) {
    problems.push(
      'REQUEST_TIMEOUT_SECONDS: must not be shorter than HEADERS_TIMEOUT_SECONDS (or 0: no limit)',
    );
  }
  // Not in the schema: it takes a number or a list, which the schema's conversion cannot tell apart.
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (trustProxy.problem) problems.push(trustProxy.problem);
  const auth = deriveAuthConfig(parsed, problems, env.NODE_ENV);
  // npm runs workspace scripts in the package folder; a relative DATA_DIR means relative to
  // where the user typed the command.
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(base, parsed.DATA_DIR);
  const storage = deriveStorageConfig(parsed, problems, dataDir);
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port: parsed.PORT,
    host: parsed.HOST,
    dataDir,
    databaseUrl: parsed.DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE,
    demoData: parsed.DEMO_DATA,
    logLevel: parsed.LOG_LEVEL,
    writeAccess: parsed.WRITE_ACCESS,
    sessionIdleMs: parsed.SESSION_IDLE_DAYS * DAY_MS,
    sessionMaxMs: parsed.SESSION_MAX_DAYS * DAY_MS,
    tokenDefaultMs: parsed.TOKEN_DEFAULT_DAYS * DAY_MS,
    tokenMaxMs: parsed.TOKEN_MAX_DAYS * DAY_MS,
    roleRefreshMs: parsed.ROLE_REFRESH_SECONDS * 1000,
    trustProxy: trustProxy.value,
    timeouts: Object.freeze({
      headersMs,
      requestMs,
      keepAliveMs: parsed.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      idleMs: parsed.IDLE_TIMEOUT_SECONDS * 1000,
    }),
    responseCacheBytes: parsed.RESPONSE_CACHE_MB * 1024 * 1024,
    httpMaxAgeSeconds: parsed.HTTP_MAX_AGE_SECONDS,
    metricsEnabled: parsed.METRICS_ENABLED,
    metricsToken: parsed.METRICS_TOKEN,
    auth,
    storage,
  });
}
