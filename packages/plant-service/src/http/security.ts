/**
 * HTTP hardening: security headers (helmet), CORS for the trusted browser
 * origins with credentials (@fastify/cors), and rate limits (@fastify/rate-limit): one budget per
 * client address shared by every /auth/* route, and one shared by every write, counted per user.
 * A write's credential is checked first (its route's own onRequest hook), so people behind one
 * address (an office, a proxy without TRUST_PROXY) do not share a budget, and no client escapes
 * its budget by naming another address; a write without a valid credential is refused 401 before
 * it counts, at no more cost than a public read. The client address is the socket's, or the one
 * the trusted proxies report (TRUST_PROXY).
 * Registered before any route, since the limits attach to routes as they are declared.
 */
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import helmet from 'helmet';
import type { AuthConfig } from '../auth/auth-config.js';
import { TooManyRequests } from '../errors.js';
import { WRITE_METHODS } from '../lib/write-methods.js';
import { ErrorBody, Ref } from '../schema/types.js';

const MINUTE_MS = 60_000;

export async function registerSecurity(app: FastifyInstance, auth: AuthConfig): Promise<void> {
  // helmet's middleware, built once: it works out every header's value when built and only sets
  // them per response. (The Fastify wrapper builds it anew for every request, parsing the policy
  // each time.)
  const securityHeaders = helmet({
    // One policy for every response; it is what the API documentation page (/api/docs,
    // swagger-ui served from this service) needs: its own scripts, styles and images, inline
    // style attributes, and fetch to this origin. JSON responses are unaffected by it.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'connect-src': ["'self'"],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'img-src': ["'self'", 'data:'],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        ...(auth.secureCookies ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // HSTS only makes sense, and only binds browsers, when the service is reached over https.
    strictTransportSecurity: auth.secureCookies ? { maxAge: 180 * 24 * 3600 } : false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()));

  await app.register(cors, {
    origin: [...auth.trustedOrigins],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    maxAge: 600,
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new TooManyRequests(`too many requests: try again in ${context.after}`, { retry_after: context.after }),
  });
  const limiter = (max: number, keyGenerator: (request: FastifyRequest) => string) =>
    max > 0
      ? (app.rateLimit({ max, timeWindow: MINUTE_MS, keyGenerator }) as onRequestAsyncHookHandler)
      : undefined;
  const authLimit = limiter(auth.rateLimit.authPerMinute, (request) => request.ip);
  const writeLimit = limiter(auth.rateLimit.writesPerMinute, (request) =>
    request.user ? `user:${request.user.id}` : `address:${request.ip}`,
  );

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hook = route.url.startsWith('/auth/')
      ? authLimit
      : methods.some((m) => WRITE_METHODS.has(m)) &&
          !(route.config as { readOnly?: boolean } | undefined)?.readOnly
        ? writeLimit
        : undefined;
    if (!hook) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    // Sign-in routes are limited before anything else; writes once their credential is known.
    route.onRequest = hook === authLimit ? [hook, ...existing] : [...existing, hook];
    documentLimits(route, hook === authLimit ? 'RATE_LIMIT_AUTH_PER_MINUTE' : 'RATE_LIMIT_WRITES_PER_MINUTE');
  });
}

/** Adds what this file decides to the route's documented responses: 429, and the CSRF 403 on writes. */
function documentLimits(route: RouteOptions, variable: string): void {
  const response = route.schema?.response as Record<string, Record<string, unknown>> | undefined;
  if (!response) return;
  response['429'] ??= {
    ...Ref(ErrorBody),
    description: `Too many requests from this ${variable === 'RATE_LIMIT_AUTH_PER_MINUTE' ? 'address' : 'user'} (${variable}); see \`Retry-After\`.`,
  };
  const forbidden = response['403'];
  const methods = [route.method].flat();
  if (forbidden && methods.some((m) => WRITE_METHODS.has(m))) {
    response['403'] = {
      ...forbidden,
      description: `${forbidden.description ?? 'Forbidden.'} Also: a write with cookie \`id\` from an origin other than PUBLIC_URL or CORS_ORIGINS.`,
    };
  }
}
