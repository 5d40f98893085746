import type { FastifyRequest } from 'fastify';
import { Forbidden, TooManyRequests, Unauthorized } from '../errors.js';
import type { AccountStore } from './accounts.js';
import type { LoginThrottle } from './login-throttle.js';
import { grants } from './permissions.js';

/** Parses `Authorization: Basic base64(user:password)` (RFC 7617); null when absent or malformed. */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The onRequest hook that guards every plugin route by its permission node: anonymous
 * nodes pass; no credentials → 401; wrong credentials → 401 and a counted failure; a blocked
 * address, or username from that address, → 429; valid credentials without the node → 403.
 */
export function authenticator(accounts: AccountStore, throttle: LoginThrottle) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const node = request.routeOptions.config.permission;
    if (!node || accounts.anonymousMay(node)) return;
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials) throw new Unauthorized('authentication required');
    const wait = throttle.blockedFor(request.ip, credentials.username);
    if (wait > 0)
      throw new TooManyRequests(
        `too many failed logins; retry in ${wait} s`,
        {},
        { retryAfterSeconds: wait },
      );
    const principal = await accounts.verify(credentials.username, credentials.password);
    if (!principal) {
      throttle.failed(request.ip, credentials.username);
      request.log.warn({ username: credentials.username }, 'failed login');
      throw new Unauthorized('invalid credentials');
    }
    if (!grants(principal.nodes, node)) throw new Forbidden(`account ${principal.username} lacks ${node}`);
  };
}
