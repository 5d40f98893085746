/**
 * Auth endpoints: OIDC login, callback and logout, and the current user.
 * The rules live in auth/login-service.ts; here only HTTP: query, cookies, redirects.
 */

import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CALLBACK_PATH } from '../../auth/auth-config.js';
import type { AuthSettings } from '../../auth/auth-settings.js';
import { canWrite, SESSION_COOKIE } from '../../auth/guard.js';
import type { LoginService } from '../../auth/login-service.js';
import { LOGIN_TTL_MS } from '../../auth/oidc/pending-logins.js';
import { needsAuth } from '../../http/needs-auth.js';
import { sessionSecurity } from '../../http/route-schemas.js';
import { comesFromElsewhere, LOGOUT_PAGE } from './logout-page.js';
import { CallbackQuery, CurrentUser, errorResponse, LoginQuery, Redirect } from './schemas.js';

/** Holds the state of the login this browser started, for the callback to compare. */
export const LOGIN_COOKIE = 'oidc_login';

const tags = ['auth'];
const e429 = errorResponse('Too many requests from this address (RATE_LIMIT_AUTH_PER_MINUTE).');
const e503 = errorResponse(
  '`login is not configured` (no OIDC_ISSUER), or the provider has not been reached yet (retrying).',
);

export const authRoutes = (service: LoginService, config: AuthSettings): FastifyPluginAsyncTypebox =>
  needsAuth(async (app) => {
    const base: CookieSerializeOptions = {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.auth.secureCookies,
    };
    const session: CookieSerializeOptions = { ...base, path: '/' };
    const login: CookieSerializeOptions = { ...base, path: CALLBACK_PATH };
    const trusted = new Set(config.auth.trustedOrigins);
    // The confirmation form posts no fields, but a browser still labels the empty body as a form.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, undefined),
    );

    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/auth/oidc/login',
      {
        schema: {
          operationId: 'startLogin',
          tags,
          summary: 'Start the OIDC login',
          description:
            "Redirects to the provider's authorization endpoint: authorization code flow with PKCE (S256); " +
            'state, nonce and code verifier stay on the server for 10 minutes. The state is also set in ' +
            `cookie \`${LOGIN_COOKIE}\` (HttpOnly, SameSite=Lax, Path=${CALLBACK_PATH}) so only the browser ` +
            'that started the login can finish it.',
          querystring: LoginQuery,
          response: {
            302: Redirect("To the provider's authorization endpoint."),
            400: errorResponse('`return_to` is not a path on this service.'),
            429: e429,
            503: e503,
          },
        },
      },
      async (request, reply) => {
        const { location, state } = await service.begin(request.query.return_to);
        reply.setCookie(LOGIN_COOKIE, state, { ...login, maxAge: LOGIN_TTL_MS / 1000 });
        return reply.redirect(location, 302);
      },
    );

    app.get(
      '/auth/oidc/callback',
      {
        schema: {
          operationId: 'finishLogin',
          tags,
          summary: 'Finish the OIDC login',
          description:
            'The provider sends the browser here. Checks state (known, unused, unexpired, started in this ' +
            'browser), exchanges the code (PKCE verifier, nonce and ID token checked), creates or updates the ' +
            'user (by issuer + subject; email, name and nickname from the ID token, else userinfo; roles ' +
            're-evaluated), starts a new session (the previous one of this browser ends) and sets cookie `id` ' +
            '(HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https; Max-Age = SESSION_MAX_DAYS). ' +
            'No session is created on any error.',
          querystring: CallbackQuery,
          response: {
            302: Redirect('To `/` or the `return_to` given at login; sets cookie `id`.'),
            400: errorResponse(
              'State or code missing, state unknown, expired, used, or not from this browser.',
            ),
            401: errorResponse(
              'The provider refused the login, the code exchange failed, or no email was sent.',
            ),
            403: errorResponse('An administrator disabled this account (`POST /api/v1/users/{id}/disable`).'),
            429: e429,
            503: e503,
          },
        },
      },
      async (request, reply) => {
        // The login cookie is single-use whatever the outcome.
        reply.clearCookie(LOGIN_COOKIE, login);
        const { sessionToken, returnTo } = await service.complete({
          query: request.query as Record<string, string>,
          browserState: request.cookies[LOGIN_COOKIE],
          previousSession: request.cookies[SESSION_COOKIE],
        });
        reply.setCookie(SESSION_COOKIE, sessionToken, { ...session, maxAge: config.sessionMaxMs / 1000 });
        return reply.redirect(returnTo, 302);
      },
    );

    const logout = async (request: FastifyRequest, reply: FastifyReply) => {
      await service.logout(request.cookies[SESSION_COOKIE]);
      reply.clearCookie(SESSION_COOKIE, session);
      return reply.redirect('/', 302);
    };

    app.get(
      '/auth/oidc/logout',
      {
        schema: {
          operationId: 'logout',
          tags,
          summary: 'Log out',
          description:
            'Ends the session on the server, clears cookie `id` and redirects to `/`. The session at the ' +
            'provider is left alone; sign out there separately. A request that comes from another site ' +
            '(an `Origin` or `Referer` that is not PUBLIC_URL or in CORS_ORIGINS, or, naming neither, ' +
            '`Sec-Fetch-Site: cross-site` or `same-site`) and carries a session does not end it: it gets ' +
            'a small HTML page whose button confirms with `POST /auth/oidc/logout`.',
          response: {
            200: {
              description: 'The confirmation page, for a request from another site; the session lives on.',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
            302: Redirect('To `/`; clears cookie `id`.'),
            429: e429,
            503: e503,
          },
        },
      },
      async (request, reply) => {
        if (request.cookies[SESSION_COOKIE] && comesFromElsewhere(request, trusted)) {
          service.checkConfigured();
          return reply.type('text/html; charset=utf-8').send(LOGOUT_PAGE);
        }
        return logout(request, reply);
      },
    );

    app.post(
      '/auth/oidc/logout',
      {
        // Ends a session but changes no catalogue data: cached public responses stay valid.
        config: { readOnly: true },
        schema: {
          operationId: 'confirmLogout',
          tags,
          summary: 'Log out (confirmed)',
          description:
            'What the confirmation page of `GET /auth/oidc/logout` posts: ends the session, clears cookie ' +
            '`id` and redirects to `/`. With the session cookie it must come from PUBLIC_URL or ' +
            'CORS_ORIGINS (`Origin`, else `Referer`), like every cookie write: 403 otherwise. No body is read.',
          response: {
            302: Redirect('To `/`; clears cookie `id`.'),
            403: errorResponse('Cross-site request: the `Origin` (or `Referer`) is not a trusted origin.'),
            429: e429,
            503: e503,
          },
        },
      },
      logout,
    );

    app.get(
      '/auth/me',
      {
        preHandler: app.auth.session,
        schema: {
          operationId: 'getCurrentUser',
          tags,
          summary: 'The signed-in user',
          security: sessionSecurity,
          response: { 200: CurrentUser, 401: errorResponse('No valid session (cookie `id`).'), 429: e429 },
        },
      },
      async (request) => {
        const user = request.user!;
        return {
          id: user.id,
          email: user.email,
          name: user.name,
          nickname: user.nickname,
          admin: user.is_admin,
          can_write: canWrite(user, config.writeAccess),
          roles_current: user.roles_current,
        };
      },
    );
  });
