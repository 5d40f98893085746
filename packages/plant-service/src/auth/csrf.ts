/**
 * Cross-site request forgery defence for cookie sessions: a POST, PUT, PATCH or
 * DELETE that carries the session cookie must come from a trusted origin, PUBLIC_URL or one of
 * CORS_ORIGINS, named by its `Origin` header or, when a browser sent none, its `Referer`.
 * Otherwise 403, before the body is read. SameSite=Lax already keeps the cookie off most
 * cross-site writes; this check also covers same-site subdomains and older browsers. A request
 * with `Authorization: Bearer` is exempt: it is authenticated by that token alone (the guard
 * ignores the cookie then), which a browser never attaches on its own.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from '../errors.js';
import { WRITE_METHODS } from '../lib/write-methods.js';
import { bearerToken, SESSION_COOKIE } from './guard.js';

/** The origin a request says it comes from, or undefined when it names none. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export const csrfOriginCheck = fp<{ trustedOrigins: readonly string[] }>(
  async (app, { trustedOrigins }) => {
    const trusted = new Set(trustedOrigins);
    app.addHook('onRequest', async (request) => {
      if (!WRITE_METHODS.has(request.method) || !request.cookies[SESSION_COOKIE]) return;
      if (bearerToken(request) !== undefined) return;
      const origin = requestOrigin(request);
      if (origin && trusted.has(origin)) return;
      throw new Forbidden(
        origin
          ? `cross-site request refused: origin ${origin.slice(0, 200)} is not PUBLIC_URL or in CORS_ORIGINS`
          : 'cross-site request refused: a write with the session cookie needs an Origin or Referer header',
      );
    });
  },
  { name: 'csrf-origin-check', dependencies: ['@fastify/cookie'] },
);
