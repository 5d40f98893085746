/**
 * Request validation. Bodies are checked strictly (no type coercion, unknown fields rejected);
 * query strings and path params are coerced from text, since that is all a URL carries.
 */
import { describeSchemaError } from '@plants/common/validation-message';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler, RouteOptions } from 'fastify';
import { BadRequest } from '../errors.js';
import { HTTP_URL_PATTERN } from '../schema/fields.js';

// ajv-formats is CommonJS; its `default` property is the plugin under both TS and Node's ESM loader.
const addFormats = addFormatsModule.default;

const common: Options = {
  allErrors: false,
  allowUnionTypes: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
};

export function createValidatorCompiler(
  sharedSchemas: () => Record<string, unknown>,
): FastifySchemaCompiler<FastifySchema> {
  const strict = new Ajv({ ...common, coerceTypes: false });
  const coercing = new Ajv({ ...common, coerceTypes: 'array' });
  let loaded = false;
  for (const ajv of [strict, coercing]) addFormats(ajv);

  return ({ schema, httpPart }) => {
    if (!loaded) {
      for (const shared of Object.values(sharedSchemas())) {
        strict.addSchema(shared as object);
        coercing.addSchema(shared as object);
      }
      loaded = true;
    }
    return (httpPart === 'body' ? strict : coercing).compile(schema as object);
  };
}

/**
 * A query parameter with a default is optional: the validator fills the default in, so it is not
 * listed as required — neither to the validator nor in the OpenAPI document, where a generated
 * client would otherwise have to send it. Runs on every route as it is declared.
 */
export function defaultedQueryOptional(route: RouteOptions): void {
  const query = route.schema?.querystring as
    | { required?: string[]; properties?: Record<string, { default?: unknown }> }
    | undefined;
  if (!query?.required || !query.properties) return;
  const properties = query.properties;
  route.schema = {
    ...route.schema,
    querystring: {
      ...query,
      required: query.required.filter((name) => properties[name]?.default === undefined),
    },
  };
}

/**
 * No text a client sends may carry a NUL character: PostgreSQL cannot store one in text, and no
 * name, slug or filter needs one. Checked for path, query and JSON body before the schemas, on
 * every route; the 400 names the field.
 */
export async function rejectNulCharacters(request: FastifyRequest): Promise<void> {
  for (const [where, value] of [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const field = nulField(value);
    if (field !== undefined) {
      const name = field || where;
      throw new BadRequest(`${name}: must not contain a NUL character`, {
        ...(field ? { field } : {}),
        in: where,
      });
    }
  }
}

/** A value still to look at, with the key it sits under and its parent, to name its path if needed. */
interface Pending {
  value: unknown;
  key: string;
  parent: Pending | undefined;
}

/**
 * The dotted path of the first string (or key) holding a NUL, '' for the value itself. Iterative,
 * with each value's path kept as a link to its parent and joined only for the one found: the cost
 * is linear in the value's size whatever its depth.
 */
function nulField(root: unknown): string | undefined {
  const pathOf = (at: Pending | undefined, last?: string): string => {
    const keys = last === undefined ? [] : [last];
    for (let p = at; p?.parent !== undefined; p = p.parent) keys.push(p.key);
    return keys.reverse().join('.');
  };
  const stack: Pending[] = [{ value: root, key: '', parent: undefined }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value } = next;
    if (typeof value === 'string') {
      if (value.includes('\0')) return pathOf(next);
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    const entries = Object.entries(value);
    // Pushed in reverse so that the first field is looked at first, as a reader would name it.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown];
      if (key.includes('\0')) return pathOf(next, key.replaceAll('\0', '\\0'));
      stack.push({ value: item, key, parent: next });
    }
  }
  return undefined;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path' };

/** Turns the first ajv error into a message that names the field, e.g. `ph_min: must be <= 14`. */
export function describeValidationError(
  errors: ErrorObject[],
  context: string | undefined,
): { message: string; field?: string; in: string } {
  const where = PART_NAMES[context ?? ''] ?? context ?? 'request';
  const { message, field } = describeSchemaError(errors, where);
  const first = errors[0];
  if (first?.keyword === 'pattern' && (first.params as { pattern?: string }).pattern === HTTP_URL_PATTERN) {
    return {
      message: `${field ?? where}: must be an http or https URL`,
      ...(field ? { field } : {}),
      in: where,
    };
  }
  return { message, ...(field ? { field } : {}), in: where };
}
