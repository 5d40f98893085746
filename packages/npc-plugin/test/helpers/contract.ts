/**
 * The NPC's committed OpenAPI document (the drift test keeps it equal to the served one) as the
 * oracle for every HTTP response the tests receive, to `inject` (buildTestApp installs the check)
 * or to a real client (`httpClient`):
 *   - the operation is in the document and documents the status;
 *   - a 5xx other than a documented 503 is always a violation;
 *   - every 4xx/5xx body is JSON with a string `error`;
 *   - a JSON body is valid against the documented schema for that status.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import YAML from 'yaml';
import { packageRoot } from './npc-process.js';

const addFormats = addFormatsModule.default;

/** The test-only response header that carries a violation back to `inject`'s caller. */
export const VIOLATION_HEADER = 'x-contract-violation';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

export interface ResponseFacts {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string | undefined;
}

let compiled: ((facts: ResponseFacts) => string | undefined) | null = null;

/** The violation of one response, or undefined when it keeps the contract. */
export function contractViolation(facts: ResponseFacts): string | undefined {
  compiled ??= compile(YAML.parse(readFileSync(join(packageRoot, 'openapi.yaml'), 'utf8')) as Document);
  return compiled(facts);
}

function compile(document: Document): (facts: ResponseFacts) => string | undefined {
  const ajv = new Ajv({ strict: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi' });
  const validators = new Map<string, ValidateFunction>();
  return (r) => {
    const path = r.url.split('?')[0] ?? '';
    const operation = document.paths[path]?.[r.method.toLowerCase()];
    const json = parseJson(r.contentType, r.body);
    if (r.status >= 400 && typeof (json as { error?: unknown } | undefined)?.error !== 'string') {
      return `a ${r.status} must carry a JSON {error} body, got ${JSON.stringify(r.body?.slice(0, 200))}`;
    }
    if (!operation) {
      // The document itself and unknown URLs (the 404 handler's {error}, checked above) are not operations.
      if (r.status === 404 || path === '/npc/openapi.yaml') return undefined;
      return `${r.method} ${path} is not in the document`;
    }
    if (r.status >= 500 && r.status !== 503) return `a ${r.status} is never part of the contract`;
    const status = String(r.status);
    const documented = operation.responses?.[status];
    if (!documented) {
      return `status ${status} is not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`;
    }
    const mediaType = r.contentType.split(';')[0]?.trim() ?? '';
    const content = documented.content;
    if (!content) return undefined;
    if (!(mediaType in content)) return `content type '${mediaType}' is not documented for ${status}`;
    if (mediaType !== 'application/json' || !content[mediaType]?.schema) return undefined;
    const pointer = `/paths/${segment(path)}/${r.method.toLowerCase()}/responses/${status}/content/${segment(mediaType)}/schema`;
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate(json)
      ? undefined
      : `the ${status} body does not match its schema: ${ajv.errorsText(validate.errors)}`;
  };
}

function parseJson(contentType: string, body: string | undefined): unknown {
  if (!contentType.includes('json') || !body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function segment(text: string): string {
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Checks every response of `app` before it is sent and names a violation in a test-only header;
 * `inject` on that app then throws, so the test that made the request fails. Hijacked streams
 * (`/events`) never pass here.
 */
export function checkResponses(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    const violation = contractViolation({
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      body,
    });
    if (violation) reply.header(VIOLATION_HEADER, encodeURIComponent(violation));
    return payload;
  });
  const inject = app.inject.bind(app) as (options: object) => Promise<{ headers: Record<string, unknown> }>;
  Object.assign(app, {
    inject: async (options: object) => {
      const response = await inject(options);
      const violation = response.headers[VIOLATION_HEADER];
      if (typeof violation === 'string')
        throw new Error(`OpenAPI contract: ${decodeURIComponent(violation)}`);
      return response;
    },
  });
}
