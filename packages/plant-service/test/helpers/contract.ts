/**
 * The served OpenAPI document as the oracle for every response of the API suite. createTestApp
 * installs `checkResponses` on each app it builds, so every response — to `inject` or to a real
 * HTTP client — is checked without a test opting in:
 *   - the operation is in the document, and the status is one it documents;
 *   - a 5xx other than a documented 503 is always a violation;
 *   - every 4xx/5xx body is JSON with a string `error`;
 *   - a JSON body is valid against the documented schema for that status (so an empty 200 fails).
 * Validators are compiled once per worker and document, and reused by every app built from it.
 */
import { gunzipSync } from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import YAML from 'yaml';

const addFormats = addFormatsModule.default;

/** Routes deliberately outside the document: swagger-ui's own static assets. */
const UNDOCUMENTED = [/^\/api\/docs\/./];

/** The test-only response header that carries a violation back to the caller. */
export const VIOLATION_HEADER = 'x-contract-violation';

interface OpenApiResponse {
  content?: Record<string, { schema?: object }>;
}
export interface OpenApiOperation {
  responses?: Record<string, OpenApiResponse>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}
type Document = OpenApiDocument;

export interface Contract {
  /** The violation of one response, or undefined when it keeps the contract. */
  check(response: ResponseFacts): string | undefined;
  readonly document: Document;
}

export interface ResponseFacts {
  method: string;
  /** The route pattern Fastify matched (`/api/v1/species/:ref`), undefined for no route. */
  route: string | undefined;
  url: string;
  status: number;
  contentType: string;
  body: string | undefined;
}

const contracts = new Map<string, Contract>();

/** The contract of the document text `yaml`, compiled once per worker. */
export function contractOf(yaml: string): Contract {
  let contract = contracts.get(yaml);
  if (!contract) {
    contract = compile(YAML.parse(yaml) as Document);
    contracts.set(yaml, contract);
  }
  return contract;
}

function compile(document: Document): Contract {
  const ajv = new Ajv({ strict: false, allErrors: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi' });
  const validators = new Map<string, ValidateFunction>();
  const operations = new Map<string, { path: string; operation: OpenApiOperation }>();
  for (const [path, item] of Object.entries(document.paths)) {
    const route = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, operation] of Object.entries(item)) {
      operations.set(`${method.toUpperCase()} ${route}`, { path, operation });
    }
  }

  const templates = [...operations.keys()].map((key) => {
    const [method, route] = key.split(' ') as [string, string];
    const pattern = new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}/?$`);
    return { method, route, pattern };
  });
  function templateOf(method: string, path: string): string | undefined {
    const wanted = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
    return templates.find((t) => wanted.includes(t.method) && t.pattern.test(path))?.route;
  }

  function validator(pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  }

  function check(r: ResponseFacts): string | undefined {
    const path = r.url.split('?')[0] ?? '';
    const json = parseJson(r.contentType, r.body);
    // A CORS preflight is answered by the CORS layer, not by an operation.
    if (r.method === 'OPTIONS' && r.status === 204) return undefined;
    if (r.status >= 400) {
      if (json === NOT_JSON || typeof (json as { error?: unknown })?.error !== 'string') {
        return `a ${r.status} must carry a JSON {error} body, got ${JSON.stringify(r.body?.slice(0, 200))}`;
      }
    }
    // The router answers some requests before choosing a route (a path parameter over its length
    // limit): those are held to the operation whose path template the URL fits.
    const route = r.route ?? templateOf(r.method, path);
    const found =
      route === undefined
        ? undefined
        : (operations.get(`${r.method} ${route}`) ??
          (r.method === 'HEAD' ? operations.get(`GET ${route}`) : undefined));
    if (!found) {
      // No route, or a method the route lacks: the 404 handler's {error} (checked above).
      if (r.route === undefined && r.status === 404) return undefined;
      if (UNDOCUMENTED.some((p) => p.test(path))) return undefined;
      return `${r.method} ${r.route ?? path} is not in the document`;
    }
    if (r.status >= 500 && r.status !== 503) return `a ${r.status} is never part of the contract`;
    const status = String(r.status);
    const responses = found.operation.responses ?? {};
    const documented = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
    if (!documented) {
      return `status ${r.status} is not documented (documented: ${Object.keys(responses).join(', ')})`;
    }
    const content = documented.content;
    if (!content || r.method === 'HEAD') return undefined;
    const mediaType = r.contentType.split(';')[0]?.trim() ?? '';
    if (!(mediaType in content)) {
      return `content type '${mediaType}' is not documented for ${r.status} (documented: ${Object.keys(content).join(', ')})`;
    }
    if (mediaType !== 'application/json' || !content[mediaType]?.schema) return undefined;
    if (json === NOT_JSON)
      return `the ${r.status} body is not JSON: ${JSON.stringify(r.body?.slice(0, 200))}`;
    const pointer = `/paths/${pointerSegment(found.path)}/${r.method === 'HEAD' ? 'get' : r.method.toLowerCase()}/responses/${pointerSegment(
      responses[status] ? status : responses[`${status[0]}XX`] ? `${status[0]}XX` : 'default',
    )}/content/${pointerSegment(mediaType)}/schema`;
    const validate = validator(pointer);
    if (!validate(json)) {
      return `the ${r.status} body does not match its schema: ${ajv.errorsText(validate.errors)}`;
    }
    return undefined;
  }

  return { check, document };
}

const NOT_JSON = Symbol('not json');

function parseJson(contentType: string, body: string | undefined): unknown {
  if (!contentType.includes('json') || body === undefined || body === '') return NOT_JSON;
  try {
    return JSON.parse(body);
  } catch {
    return NOT_JSON;
  }
}

function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Checks every response of `app` before it is sent. A violation is recorded in `violations` and
 * named in a test-only header, so the inject wrapper fails the test that made the request.
 * Streamed bodies (images, NDJSON) are checked for status and content type only.
 */
export function checkResponses(
  app: FastifyInstance,
  contract: () => Contract | undefined,
  violations: Set<string>,
) {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const current = contract();
    if (!current) return payload;
    // Bodies the response cache keeps gzip-encoded reach this hook encoded; their content is checked.
    const decoded =
      Buffer.isBuffer(payload) && reply.getHeader('content-encoding') === 'gzip'
        ? gunzipSync(payload)
        : payload;
    const body =
      typeof decoded === 'string' ? decoded : Buffer.isBuffer(decoded) ? decoded.toString('utf8') : undefined;
    const streamed = payload !== null && payload !== undefined && body === undefined;
    const violation = current.check({
      method: request.method,
      route: request.routeOptions.url,
      url: request.url,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      // A stream's bytes are not read here; its schema (binary or NDJSON) is not JSON.
      body: streamed ? undefined : body,
    });
    if (violation && !(streamed && violation.includes('body is not JSON'))) {
      const message = `${request.method} ${request.url} → ${reply.statusCode}: ${violation}`;
      violations.add(message);
      reply.header(VIOLATION_HEADER, encodeURIComponent(message));
    }
    return payload;
  });
}
