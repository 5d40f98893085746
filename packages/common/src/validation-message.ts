/**
 * One wording for schema violations, whichever validator found them (ajv behind Fastify, TypeBox's
 * own checker): the message starts with the dotted field path, e.g. `ph_min: must be <= 14`, and
 * `field` names the field so a client need not parse the text.
 */

/** The part of an ajv or TypeBox error this module reads. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: object;
  message?: string | undefined;
}

export interface ValidationMessage {
  /** `<field>: <problem>`, or `<where>: <problem>` when the value as a whole is wrong. */
  message: string;
  /** The message without the field or place it names. */
  problem: string;
  field?: string;
  /** The allowed words, when the value had to be one of a list. */
  allowed?: string[];
}

/** Describes the first error; `where` names the whole value (e.g. `body`, `query`) when no field is at fault. */
export function describeSchemaError(errors: readonly SchemaError[], where: string): ValidationMessage {
  const error = errors[0];
  if (!error) return { message: `${where}: is invalid`, problem: 'is invalid' };
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  let problem = error.message ?? 'is invalid';
  let allowed: string[] | undefined;
  if (error.keyword === 'required') {
    // ajv names one missing property, TypeBox lists them.
    path.push(String(params.missingProperty ?? (params.requiredProperties as unknown[] | undefined)?.[0]));
    problem = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    path.push(
      String(params.additionalProperty ?? (params.additionalProperties as unknown[] | undefined)?.[0]),
    );
    problem = 'is not a known field';
  } else if (error.keyword === 'boolean' && error.schemaPath?.endsWith('/additionalProperties')) {
    // TypeBox reports an unknown property as the `false` schema it met, at the property's own path.
    problem = 'is not a known field';
  } else if (error.keyword === 'enum') {
    // null, where allowed, is part of the type; the list names the words.
    allowed = (params.allowedValues as unknown[]).filter((v) => v !== null).map(String);
    problem = `must be one of: ${allowed.join(', ')}`;
  } else if (error.keyword === 'type' && Array.isArray(params.type)) {
    problem = `must be ${(params.type as string[]).join(' or ')}`;
  }
  const field = path.length > 0 ? path.join('.') : undefined;
  return {
    message: `${field ?? where}: ${problem}`,
    problem,
    ...(field ? { field } : {}),
    ...(allowed ? { allowed } : {}),
  };
}
