/**
 * How the HTTP server treats its connections: how long a client may take to send a request's
 * headers and its whole request, how long an idle socket stays open, and which proxies in front of
 * the service are trusted to say who the client is.
 */
import type { ServerOptions } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';

export interface Timeouts {
  /** The request line and headers must arrive within this (Node's `headersTimeout`). */
  readonly headersMs: number;
  /** The whole request, body included, must arrive within this (0: no limit). */
  readonly requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveMs: number;
  /** A socket with no traffic either way is closed after this (0: never). */
  readonly idleMs: number;
}

/**
 * Fastify's and Node's server options for the timeouts. Node checks the header and request
 * deadlines on an interval (30 s by default), which would let a slow client keep a connection up to
 * that much longer; it is shortened to a quarter of the shortest deadline, at most a second.
 */
export function timeoutOptions(timeouts: Timeouts): Pick<
  FastifyHttpOptions<never>,
  'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'
> & {
  http: ServerOptions;
} {
  const deadlines = [timeouts.headersMs, timeouts.requestMs].filter((ms) => ms > 0);
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, ...deadlines.map((ms) => ms / 4)));
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.round(connectionsCheckingInterval),
    },
  };
}

/**
 * Which proxies may set `X-Forwarded-For`: none, the nearest N hops, or the listed addresses and
 * CIDR ranges (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). Never every proxy:
 * that would let any client name its own address and so its own rate-limit bucket.
 */
export type TrustProxy = false | number | readonly string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Fastify's form of it: a hop count as the function Fastify itself makes of one (its types omit
 * the number form), a list as proxy-addr's list.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Reads TRUST_PROXY; a problem line (naming the variable) for a value it cannot use. */
export function parseTrustProxy(text: string | undefined): { value: TrustProxy; problem?: string } {
  const value = text?.trim() ?? '';
  if (value === '' || /^(false|off|no|0)$/i.test(value)) return { value: false };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 10) return { value: hops };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (bad.length === 0) return { value: entries };
  return {
    value: false,
    problem:
      `TRUST_PROXY: ${JSON.stringify(value)} is not valid (expected a hop count 1-10, or a comma-separated ` +
      'list of proxy addresses or CIDR ranges such as 127.0.0.1,10.0.0.0/8; "true" is refused, since it ' +
      'would trust whatever address a client claims)',
  };
}

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
