/**
 * What the request log must not keep: the OIDC callback's `code` and `state` and any token in a
 * query string. Whoever reads the log could otherwise finish a sign-in in flight or act with the
 * token. The values are replaced, the names kept, so the log still shows what was asked.
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';
const SECRET_PARAMS = new Set(['code', 'state', 'token', 'access_token', 'id_token', 'refresh_token']);

/** `url` with the values of secret query parameters replaced; everything else byte for byte. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((param) => {
      const equals = param.indexOf('=');
      const rawName = equals === -1 ? param : param.slice(0, equals);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        name = rawName;
      }
      return SECRET_PARAMS.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : param;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

/** Fastify's own request serializer, with the URL redacted. */
function request(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Logger options with the redacting request serializer added (a caller's own ones win). */
export function withLogRedaction(options: object): object {
  const serializers = (options as { serializers?: object }).serializers;
  return { ...options, serializers: { req: request, ...serializers } };
}
