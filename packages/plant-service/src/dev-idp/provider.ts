/**
 * An embedded OpenID provider (oidc-provider) for development and tests, on a loopback port:
 * its own login page (any login name, any password) and consent page, in-memory storage, keys
 * made at start. Never for production: it refuses to start when NODE_ENV=production.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';
import type { DevAccountClaims } from './accounts.js';

export interface DevIdpOptions {
  /** 0 picks a free port. The provider listens on 127.0.0.1 only. */
  port: number;
  clients: ClientMetadata[];
  /** Looked up at every login by login name, so tests may change an account between logins. */
  accounts: Map<string, DevAccountClaims>;
  /** Claims for a login name not in `accounts`; without it such a login fails. */
  otherAccount?: (login: string) => DevAccountClaims;
  /** Put the scope claims into the ID token too (default: userinfo only, as OIDC Core says). */
  claimsInIdToken?: boolean;
  /** More claims released with scope `profile` (e.g. a provider-specific groups claim). */
  extraProfileClaims?: string[];
}

export interface DevIdp {
  readonly issuer: string;
  readonly port: number;
  close(): Promise<void>;
}

export class DevIdpRefused extends Error {
  readonly code = 'DEV_IDP_REFUSED';
}

export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  if (process.env.NODE_ENV === 'production') {
    throw new DevIdpRefused('the development identity provider refuses to run with NODE_ENV=production');
  }
  // The issuer must name the port, so listen first and build the provider afterwards.
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end();
  const server = http.createServer((request, response) => handler(request, response));
  server.listen(options.port, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
      ...c,
    })),
    jwks: { keys: [{ ...signingKey, alg: 'ES256', use: 'sig', kid: randomBytes(8).toString('hex') }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'nickname', 'preferred_username', 'groups', ...(options.extraProfileClaims ?? [])],
    },
    conformIdTokenClaims: !options.claimsInIdToken,
    // Seconds. Short-lived and in memory: the provider forgets everything at restart anyway.
    ttl: { AccessToken: 3600, IdToken: 3600, Interaction: 3600, Session: 86_400, Grant: 86_400 },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx, login) {
      const claims = options.accounts.get(login) ?? options.otherAccount?.(login);
      if (!claims) return undefined;
      return { accountId: login, claims: async () => ({ ...claims, sub: login }) };
    },
  });
  handler = provider.callback();

  return {
    issuer,
    port,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
