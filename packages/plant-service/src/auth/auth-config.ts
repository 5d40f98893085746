/**
 * The authentication part of the configuration: the OIDC provider, the
 * service's public URL, allowed browser origins, role rules, rate limits and the embedded
 * development provider. config.ts spreads `AuthEnv` into its schema and calls
 * `deriveAuthConfig`; every variable is in the root README.
 */
import { Type } from 'typebox';

export const AuthEnv = {
  PUBLIC_URL: Type.Optional(Type.String({ minLength: 1 })),
  CORS_ORIGINS: Type.Optional(Type.String()),
  OIDC_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_SCOPES: Type.String({ minLength: 1, default: 'openid email profile' }),
  OIDC_GROUPS_CLAIM: Type.String({ minLength: 1, default: 'groups' }),
  OIDC_ADMIN_GROUPS: Type.Optional(Type.String()),
  OIDC_EDITOR_GROUPS: Type.Optional(Type.String()),
  ADMIN_EMAILS: Type.Optional(Type.String()),
  EDITOR_EMAILS: Type.Optional(Type.String()),
  RATE_LIMIT_AUTH_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 60 }),
  RATE_LIMIT_WRITES_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 300 }),
  DEV_IDP: Type.Boolean({ default: false }),
  DEV_IDP_PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 8081 }),
};

/** The values of AuthEnv after defaults, plus the two core variables the defaults derive from. */
export interface AuthEnvValues {
  HOST: string;
  PORT: number;
  PUBLIC_URL?: string;
  CORS_ORIGINS?: string;
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_SCOPES: string;
  OIDC_GROUPS_CLAIM: string;
  OIDC_ADMIN_GROUPS?: string;
  OIDC_EDITOR_GROUPS?: string;
  ADMIN_EMAILS?: string;
  EDITOR_EMAILS?: string;
  RATE_LIMIT_AUTH_PER_MINUTE: number;
  RATE_LIMIT_WRITES_PER_MINUTE: number;
  DEV_IDP: boolean;
  DEV_IDP_PORT: number;
}

export interface OidcConfig {
  /** As configured; discovery checks that the provider names itself the same. */
  readonly issuer: string;
  readonly clientId: string;
  /** Absent: a public client (token endpoint auth `none`), protected by PKCE alone. */
  readonly clientSecret: string | undefined;
  readonly scopes: string;
  /** PUBLIC_URL + /auth/oidc/callback; register exactly this at the provider. */
  readonly redirectUri: string;
  /** http:// issuers are accepted on loopback only (a local or test provider). */
  readonly allowHttp: boolean;
}

export interface RoleRules {
  /** Lowercased. Grant admin only when the provider marks the email verified. */
  readonly adminEmails: readonly string[];
  /** Lowercased. Editors by verified email, beside OIDC_EDITOR_GROUPS. */
  readonly editorEmails: readonly string[];
  readonly adminGroups: readonly string[];
  readonly editorGroups: readonly string[];
  /** Claim holding the user's groups; a dotted path (`realm_access.roles`) reaches into objects. */
  readonly groupsClaim: string;
}

export interface AuthConfig {
  /** Origin of the service as browsers see it, e.g. `https://plants.example.org` (no path). */
  readonly publicUrl: string;
  /** Cookies get `Secure` when PUBLIC_URL is https. */
  readonly secureCookies: boolean;
  /** Extra browser origins allowed to call the API with credentials (CORS and the CSRF check). */
  readonly corsOrigins: readonly string[];
  /** PUBLIC_URL's origin plus CORS_ORIGINS: the origins a cookie-authenticated write may come from. */
  readonly trustedOrigins: readonly string[];
  /** undefined without OIDC_ISSUER: /auth/oidc/* answers 503. */
  readonly oidc: OidcConfig | undefined;
  readonly roles: RoleRules;
  /** Requests per minute per client address; 0 switches the limit off. */
  readonly rateLimit: { readonly authPerMinute: number; readonly writesPerMinute: number };
  readonly devIdp: { readonly enabled: boolean; readonly port: number };
}

export const CALLBACK_PATH = '/auth/oidc/callback';

/** Turns the validated variables into AuthConfig, pushing a message per bad value onto `problems`. */
export function deriveAuthConfig(
  env: AuthEnvValues,
  problems: string[],
  nodeEnv: string | undefined,
): AuthConfig {
  const publicUrl = env.PUBLIC_URL
    ? parseOrigin(env.PUBLIC_URL, 'PUBLIC_URL', problems)
    : defaultPublicUrl(env.HOST, env.PORT);
  const corsOrigins = list(env.CORS_ORIGINS).map((o) => parseOrigin(o, 'CORS_ORIGINS', problems));

  let oidc: OidcConfig | undefined;
  if (env.OIDC_ISSUER) {
    const issuer = parseIssuer(env.OIDC_ISSUER, problems);
    if (!env.OIDC_CLIENT_ID) problems.push('OIDC_CLIENT_ID: is required when OIDC_ISSUER is set');
    if (!env.PUBLIC_URL) {
      problems.push(
        `PUBLIC_URL: is required when OIDC_ISSUER is set (the redirect URI is PUBLIC_URL${CALLBACK_PATH})`,
      );
    }
    if (!env.OIDC_SCOPES.split(/\s+/).includes('openid')) {
      problems.push(`OIDC_SCOPES: ${JSON.stringify(env.OIDC_SCOPES)} must include openid`);
    }
    oidc = {
      issuer: env.OIDC_ISSUER,
      clientId: env.OIDC_CLIENT_ID ?? '',
      clientSecret: env.OIDC_CLIENT_SECRET,
      scopes: env.OIDC_SCOPES.trim().split(/\s+/).join(' '),
      redirectUri: `${publicUrl}${CALLBACK_PATH}`,
      allowHttp: issuer?.protocol === 'http:',
    };
  } else if (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET) {
    problems.push('OIDC_ISSUER: is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set');
  }

  const emails = (key: 'ADMIN_EMAILS' | 'EDITOR_EMAILS') => {
    const values = list(env[key]).map((e) => e.toLowerCase());
    for (const email of values) {
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) problems.push(`${key}: ${JSON.stringify(email)} is not an email`);
    }
    return values;
  };
  const adminEmails = emails('ADMIN_EMAILS');
  const editorEmails = emails('EDITOR_EMAILS');

  if (env.DEV_IDP) {
    if (nodeEnv === 'production') problems.push('DEV_IDP: refused when NODE_ENV=production');
    if (env.OIDC_ISSUER)
      problems.push('DEV_IDP: configures the provider itself; unset OIDC_ISSUER or DEV_IDP');
    if (env.PORT === 0)
      problems.push('DEV_IDP: needs a fixed PORT (the redirect URI is registered at start)');
  }

  return Object.freeze({
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    corsOrigins: Object.freeze(corsOrigins),
    trustedOrigins: Object.freeze([...new Set([publicUrl, ...corsOrigins])]),
    oidc: oidc && Object.freeze(oidc),
    roles: Object.freeze({
      adminEmails: Object.freeze(adminEmails),
      editorEmails: Object.freeze(editorEmails),
      adminGroups: Object.freeze(list(env.OIDC_ADMIN_GROUPS)),
      editorGroups: Object.freeze(list(env.OIDC_EDITOR_GROUPS)),
      groupsClaim: env.OIDC_GROUPS_CLAIM,
    }),
    rateLimit: Object.freeze({
      authPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
      writesPerMinute: env.RATE_LIMIT_WRITES_PER_MINUTE,
    }),
    devIdp: Object.freeze({ enabled: env.DEV_IDP, port: env.DEV_IDP_PORT }),
  });
}

/** Comma-separated, trimmed, empties dropped. */
function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Without PUBLIC_URL: where the service listens, as a browser on this machine reaches it. */
function defaultPublicUrl(host: string, port: number): string {
  let name = host;
  if (host === '0.0.0.0') name = '127.0.0.1';
  else if (host === '::') name = '[::1]';
  else if (host.includes(':')) name = `[${host}]`;
  return `http://${name}:${port}`;
}

function parseOrigin(value: string, key: string, problems: string[]): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const pathless = url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !pathless || url.username) {
    problems.push(
      `${key}: ${JSON.stringify(value)} is not an origin (expected scheme://host[:port], e.g. https://plants.example.org)`,
    );
    return value;
  }
  return url.origin;
}

/** True for localhost, 127.0.0.0/8 and ::1: hosts only this machine can reach. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function parseIssuer(value: string, problems: string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`OIDC_ISSUER: ${JSON.stringify(value)} is not a URL`);
    return undefined;
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  problems.push(
    `OIDC_ISSUER: ${JSON.stringify(value)} must be https (http is accepted only on localhost, 127.0.0.1 or ::1)`,
  );
  return undefined;
}
