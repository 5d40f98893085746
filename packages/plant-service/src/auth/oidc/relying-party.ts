/**
 * The service as an OpenID Connect relying party (openid-client v6): provider discovery with
 * retries, the authorization URL (code flow, PKCE S256, state, nonce), and the code exchange
 * that checks state, nonce, PKCE and the ID token, then reads the user's claims.
 *
 * Discovery runs once at start; while the provider is unreachable the service still starts and
 * serves reads, login answers 503, and discovery is retried with exponential backoff.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 * @see https://www.rfc-editor.org/rfc/rfc7636 (PKCE)
 */
import { type Backoff, backoffDelay } from '@plants/common/backoff';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import { errorCode } from '../../lib/error-code.js';
import type { OidcConfig } from '../auth-config.js';
import { type Claims, needsUserinfo } from './claims.js';

export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ExchangeResult {
  /** The `iss` of the validated ID token. */
  issuer: string;
  idToken: Claims;
  /** Present when the ID token lacked a claim this service reads and the provider has userinfo. */
  userinfo: Claims | undefined;
}

export interface RelyingParty {
  /** True once discovery succeeded. */
  readonly ready: boolean;
  /** Starts discovery (and its retries) in the background. */
  start(): void;
  /** Stops retrying and aborts requests in flight. */
  close(): void;
  authorizationUrl(checks: { state: string; nonce: string; codeChallenge: string }): URL;
  /** Throws on any failure: a refused or replayed code, a wrong state, nonce or verifier, a bad token. */
  exchange(callbackUrl: URL, checks: AuthorizationChecks): Promise<ExchangeResult>;
}

/** Discovery retries: one second at first, doubling, at most five minutes apart. */
export const DISCOVERY_RETRY: Backoff = { firstMs: 1_000, maxMs: 5 * 60_000 };
const REQUEST_TIMEOUT_S = 10;

export function createRelyingParty(
  settings: OidcConfig,
  extraClaims: { groupsClaim: string; wantGroups: boolean },
  log: FastifyBaseLogger,
  retry: Backoff = DISCOVERY_RETRY,
): RelyingParty {
  let configuration: oidc.Configuration | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const abort = new AbortController();

  // Every request this client makes (discovery, token, userinfo, JWKS) can be aborted by close().
  const fetchWithAbort: oidc.CustomFetch = (url, options) => {
    const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
    return fetch(url, { ...options, signal } as RequestInit);
  };

  async function discover(attempt: number): Promise<void> {
    if (closed) return;
    try {
      configuration = await oidc.discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret ? { client_secret: settings.clientSecret } : undefined,
        // OIDC's default client authentication is client_secret_basic; without a secret the
        // client is public and PKCE is its only proof.
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        {
          timeout: REQUEST_TIMEOUT_S,
          [oidc.customFetch]: fetchWithAbort,
          // Only reachable for loopback issuers: auth-config.ts refuses http elsewhere.
          execute: settings.allowHttp ? [oidc.allowInsecureRequests] : [],
        },
      );
      log.info({ issuer: settings.issuer }, 'OIDC provider discovered; login is available');
    } catch (error) {
      if (closed) return;
      const delay = backoffDelay(attempt, retry);
      // One plain line per attempt: the cause and the variable to check, no stack.
      const cause = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
      log.warn(
        { issuer: settings.issuer, variable: 'OIDC_ISSUER', attempt, retryInMs: delay },
        `OIDC provider discovery at ${settings.issuer} failed (${cause}); login answers 503 until it succeeds; check OIDC_ISSUER`,
      );
      timer = setTimeout(() => void discover(attempt + 1), delay);
      timer.unref();
    }
  }

  function ready(): oidc.Configuration {
    if (!configuration) throw new Error('OIDC provider not discovered yet');
    return configuration;
  }

  return {
    get ready() {
      return configuration !== undefined;
    },
    start() {
      void discover(1);
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      abort.abort();
    },
    authorizationUrl({ state, nonce, codeChallenge }) {
      return oidc.buildAuthorizationUrl(ready(), {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes,
        response_type: 'code',
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        state,
        nonce,
      });
    },
    async exchange(callbackUrl, { state, nonce, codeVerifier }) {
      const config = ready();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new Error('token response without an ID token');
      let userinfo: Claims | undefined;
      if (needsUserinfo(idToken, extraClaims) && config.serverMetadata().userinfo_endpoint) {
        userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      }
      return { issuer: idToken.iss, idToken, userinfo };
    },
  };
}
