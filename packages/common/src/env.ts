/**
 * Configuration from environment variables: a TypeBox object schema declares each variable's type,
 * limits and default; `readEnv` converts the text, fills the defaults and lists one problem per bad
 * variable, so a misconfigured process stops at start with every mistake named at once.
 */
import { type Static, type TObject, Type } from 'typebox';
import { Value } from 'typebox/value';

/** Start-up configuration that cannot be used; `problems` has one line per bad value. */
export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    what = 'Invalid configuration',
  ) {
    super(`${what}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  /** What a valid value looks like, for the problem line (e.g. `a version like 1.20.4`). */
  expected?: string;
}

/** A variable that takes one of a few words. */
export const envEnum = <const V extends readonly string[]>(values: V, defaultValue: V[number]) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], default: defaultValue });

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/**
 * Reads the variables `schema` declares. Values are trimmed; unset and empty mean "use the default".
 * A bad value is reported in `problems` (`NAME: "value" is not valid (expected ...)`) and replaced by
 * its default, so checks across variables can still run and report their own problems.
 */
export function readEnv<T extends TObject>(schema: T, env: Env): { values: Static<T>; problems: string[] } {
  const properties = schema.properties as Record<string, PropertySchema>;
  const raw: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const value = env[key]?.trim();
    if (value === undefined || value === '') continue;
    raw[key] = property.type === 'boolean' ? booleanText(value) : value;
  }
  const converted = Value.Convert(schema, { ...raw }) as Record<string, unknown>;
  // TypeBox turns "80.5" into 80; an integer variable takes digits only.
  for (const [key, value] of Object.entries(raw)) {
    if (properties[key]?.type === 'integer' && !/^[+-]?\d+$/.test(String(value))) converted[key] = value;
  }
  const values = Value.Default(schema, converted) as Record<string, unknown>;
  const problems: string[] = [];
  const bad = new Set<string>();
  for (const error of Value.Errors(schema, values)) {
    const key = error.instancePath.slice(1).split('/')[0] ?? '';
    if (bad.has(key) || !(key in properties)) continue;
    bad.add(key);
    const expected = describeExpected(properties[key]!, error.message);
    problems.push(`${key}: ${JSON.stringify(String(env[key]?.trim()))} is not valid (expected ${expected})`);
  }
  for (const key of bad) delete values[key];
  return { values: Value.Default(schema, values) as Static<T>, problems };
}

/** The usual spellings of a switch, in any case, as the words TypeBox converts. */
function booleanText(value: string): string {
  const lower = value.toLowerCase();
  if (TRUE.includes(lower)) return 'true';
  if (FALSE.includes(lower)) return 'false';
  return value;
}

function describeExpected(property: PropertySchema, message: string): string {
  if (property.expected) return property.expected;
  if (property.enum) return `one of ${property.enum.join(', ')}`;
  if (property.type === 'boolean') return 'true or false';
  if (property.type === 'integer' || property.type === 'number') {
    const kind = property.type === 'integer' ? 'an integer' : 'a number';
    const { minimum, maximum, exclusiveMinimum } = property;
    if (minimum !== undefined && maximum !== undefined) return `${kind} from ${minimum} to ${maximum}`;
    if (exclusiveMinimum !== undefined && maximum !== undefined)
      return `${kind} above ${exclusiveMinimum}, at most ${maximum}`;
    if (minimum !== undefined) return `${kind} >= ${minimum}`;
    if (maximum !== undefined) return `${kind} <= ${maximum}`;
    return kind;
  }
  return message.replace(/^must be /, '');
}
