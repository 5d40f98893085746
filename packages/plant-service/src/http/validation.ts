/**
 * Request validation. Bodies are checked strictly (no type coercion, unknown fields rejected);
 * query strings and path params are coerced from text, since that is all a URL carries.
 */
import { describeSchemaError } from '@plants/common/validation-message';
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler, RouteOptions } from 'fastify';
import { BadRequest } from '../errors.js';

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
    const field = nulField(value, []);
    if (field !== undefined) {
      const name = field || where;
      throw new BadRequest(`${name}: must not contain a NUL character`, {
        ...(field ? { field } : {}),
        in: where,
      });
    }
  }
}

/** The dotted path of the first string (or key) holding a NUL, '' for the value itself. */
function nulField(value: unknown, path: string[]): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return [...path, key.replaceAll('\0', '\\0')].join('.');
    const found = nulField(item, [...path, key]);
    if (found !== undefined) return found;
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
  return { message, ...(field ? { field } : {}), in: where };
}
