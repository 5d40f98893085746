/**
 * `return_to` of /auth/oidc/login: where to send the browser after a successful login. Only a
 * path on this service is accepted, so the login cannot be used as an open redirect
 * (https://cwe.mitre.org/data/definitions/601.html).
 */
import { BadRequest } from '../../errors.js';

export const MAX_RETURN_TO = 2000;
const BASE = 'http://return-to.invalid';

/** The normalised path (with query and fragment), `/` when absent; BadRequest for anything else. */
export function parseReturnTo(value: string | undefined): string {
  if (value === undefined || value === '') return '/';
  const refuse = (why: string) => new BadRequest(`return_to: ${why}`, { field: 'return_to', in: 'query' });
  if (value.length > MAX_RETURN_TO) throw refuse(`must be at most ${MAX_RETURN_TO} characters`);
  // `//host` and `/\host` are network-path references that browsers resolve to another host;
  // backslashes and control characters are read differently by different parsers.
  if (!value.startsWith('/') || value.startsWith('//') || [...value].some(unsafeChar)) {
    throw refuse('must be a path on this service starting with a single / (no absolute URLs)');
  }
  const url = new URL(value, BASE);
  if (url.origin !== BASE) throw refuse('must be a path on this service');
  // Dot segments (`/.//host`, `/..//host`, `/%2e//host`, `/x/..//host`) can normalise into a
  // network-path reference; so can encoded slashes and backslashes to a parser that decodes them.
  if (networkPath(url.pathname) || networkPath(decoded(url.pathname))) {
    throw refuse('must be a path on this service (it normalises to another host)');
  }
  if (url.pathname.startsWith('/auth/oidc/')) throw refuse('must not point at the login routes');
  return `${url.pathname}${url.search}${url.hash}`;
}

function networkPath(path: string): boolean {
  return /^[/\\]{2}/.test(path) || path.includes('\\');
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function unsafeChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return c === '\\' || code < 0x20 || code === 0x7f;
}
