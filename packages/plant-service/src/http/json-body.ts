/**
 * Limits on JSON bodies, enforced while parsing and before anything walks the parsed value: at most
 * JSON_BODY_LIMIT bytes (413 while the body streams in) and at most JSON_MAX_DEPTH nested arrays or
 * objects (400). The depth is measured by one pass over the raw text, so a body costs time linear in
 * its length whatever its shape; only then does JSON.parse see it. A client's JSON is never deeper
 * than this service's own records (a species with a list of objects is 3 deep).
 */
import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../errors.js';

/** The largest JSON (or text) body accepted, in bytes; image uploads have their own limit. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The deepest nesting of arrays and objects a JSON body may have. */
export const JSON_MAX_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text nests arrays and objects more than `max` deep. Brackets inside strings
 * do not count; the text need not be valid JSON (JSON.parse judges that afterwards).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser by one that checks the depth first, then parses as Fastify does
 * (secure-json-parse: a `__proto__` key is refused, `constructor` is kept as data).
 */
export function registerJsonBodyLimits(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT },
    (request, body, done) => {
      const text = body as string;
      if (nestsDeeperThan(text, JSON_MAX_DEPTH)) {
        done(
          new BadRequest(`body: nests arrays or objects deeper than ${JSON_MAX_DEPTH} levels (the limit)`, {
            in: 'body',
          }),
          undefined,
        );
        return;
      }
      parse(request, text, done);
    },
  );
}
