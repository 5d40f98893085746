/**
 * Request validation. Bodies are checked strictly (no type coercion, unknown fields rejected);
 * query strings and path params are coerced from text, since that is all a URL carries.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

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

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path' };

/** Turns the first ajv error into a message that names the field, e.g. `ph_min: must be <= 14`. */
export function describeValidationError(
  errors: ErrorObject[],
  context: string | undefined,
): { message: string; field?: string; in: string } {
  const where = PART_NAMES[context ?? ''] ?? context ?? 'request';
  const error = errors[0];
  if (!error) return { message: `${where}: invalid`, in: where };
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    path.push(String(params.missingProperty));
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    path.push(String(params.additionalProperty));
    message = 'is not a known field';
  } else if (error.keyword === 'enum') {
    message = `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
  } else if (error.keyword === 'type' && Array.isArray(params.type)) {
    message = `must be ${(params.type as string[]).join(' or ')}`;
  }
  const field = path.length > 0 ? path.join('.') : undefined;
  return field
    ? { message: `${field}: ${message}`, field, in: where }
    : { message: `${where}: ${message}`, in: where };
}
