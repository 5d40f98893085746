/**
 * Logout is a GET (the spec's route), so any site can link or redirect a signed-in browser to it,
 * and SameSite=Lax sends the session cookie along on such a top-level navigation. A request that
 * says it comes from elsewhere therefore does not end the session: it gets this page, whose
 * button POSTs back to confirm. The POST passes the same Origin check as every cookie write
 * (auth/csrf.ts), which a foreign page cannot satisfy, and a browser sends no Lax cookie on a
 * cross-site POST anyway.
 */
import type { FastifyRequest } from 'fastify';
import { requestOrigin } from '../../auth/csrf.js';

/**
 * True when the request names an origin that is not PUBLIC_URL or in CORS_ORIGINS (Origin, else
 * Referer), or names none and the browser's Fetch Metadata says it came from another site.
 * A request naming nothing at all (a typed URL, a bookmark, curl) is trusted, as the spec's
 * plain GET expects.
 *
 * @see https://www.w3.org/TR/fetch-metadata/
 */
export function comesFromElsewhere(request: FastifyRequest, trusted: ReadonlySet<string>): boolean {
  const origin = requestOrigin(request);
  if (origin !== undefined) return !trusted.has(origin);
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/** Static: nothing from the request is written into it. No script, so the CSP needs nothing extra. */
export const LOGOUT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Sign out?</title>
</head>
<body>
<main>
<h1>Sign out of the plant service?</h1>
<p>Another site sent you here. You stay signed in unless you confirm.</p>
<form method="post" action="/auth/oidc/logout">
<button type="submit">Sign out</button>
</form>
<p><a href="/">Stay signed in</a></p>
</main>
</body>
</html>
`;
