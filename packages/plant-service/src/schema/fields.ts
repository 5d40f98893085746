/**
 * Field catalogue primitives. A resource declares each of its fields once with one of these
 * helpers; the database columns (db/tables.ts), the TypeBox record/create/update schemas and so
 * the OpenAPI components, the list filters and the full-text columns are all derived from that one
 * declaration.
 */
import {
  boolean,
  customType,
  doublePrecision,
  integer,
  type PgColumnBuilderBase,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { type Static, type TObject, type TOptional, type TSchema, type TUnsafe, Type } from 'typebox';
import { Nullable, type TNullable } from './types.js';

/**
 * Weight of a field in its record's full-text document: `A` for names (also matched on their own,
 * as the search's first phase), `C` for descriptive texts.
 */
export type SearchWeight = 'A' | 'C';

/**
 * How a list filters on the field: `equals` takes one value of the field (a word of its vocabulary,
 * true or false), `minimum` the least value a record may have, `contains` one item a list field
 * must hold (for a list of objects, the value of the item member `key`). `param` names the query
 * parameter where it is not the field's own name.
 */
export interface FilterDef {
  readonly by: 'equals' | 'minimum' | 'contains';
  readonly key?: string;
  readonly param?: string;
  /** The parameter's description; none unless given. */
  readonly description?: string;
}

export interface FieldDef<S extends TSchema = TSchema, W extends boolean = boolean> {
  /** Schema of a non-null value. */
  readonly schema: S;
  /** Column builder for the field (nullable unless `presence` says otherwise). */
  readonly column: () => PgColumnBuilderBase;
  /** Whether the field is part of the create/update payload. */
  readonly writable: W;
  /**
   * `optional` (the default): null when unknown, and may be left out of any payload. `required`:
   * never null, and every create names it (with `input`'s constraints when they are stricter than
   * what a stored record may hold). `defaulted`: never null; the database fills it when a create
   * leaves it out.
   */
  readonly presence?: 'optional' | 'required' | 'defaulted';
  /** Schema of a payload's value, where it differs from the record's. */
  readonly input?: TSchema;
  /** What null means, where it is more than "unknown"; said in the nullable value's description. */
  readonly nullMeaning?: string;
  readonly search?: SearchWeight;
  readonly filter?: FilterDef;
}

type Opts<W extends boolean> = { writable?: W; description?: string };
/**
 * `payload`: a payload's own limits, where a payload is checked more strictly than the records
 * already stored; the record's schema then states only the type (and description).
 */
type StrOpts<W extends boolean> = Opts<W> & {
  maxLength?: number;
  pattern?: string;
  search?: SearchWeight;
  payload?: { maxLength?: number; format?: string; pattern?: string };
};
/**
 * A link that a client may write: an absolute http or https URL (scheme in any case), nothing
 * else. Pages show these as links, where a `javascript:` or `data:` URL would run or show whatever
 * it says; the format alone (`uri`) allows any scheme.
 */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
export const httpUrl = { maxLength: 2_000, format: 'uri', pattern: HTTP_URL_PATTERN } as const;

type NumOpts<W extends boolean> = Opts<W> & { minimum?: number; maximum?: number; exclusiveMinimum?: number };

const meta = (o: Opts<boolean>) => (o.description ? { description: o.description } : {});
const isWritable = <W extends boolean>(o: Opts<W>) => (o.writable ?? true) as W;

export function str<W extends boolean = true>(o: StrOpts<W> = {}) {
  const limits = o.payload
    ? {}
    : { maxLength: o.maxLength ?? 20_000, ...(o.pattern === undefined ? {} : { pattern: o.pattern }) };
  return {
    schema: Type.String({ ...limits, ...meta(o) }),
    ...(o.payload ? { input: Type.String({ ...o.payload, ...meta(o) }) } : {}),
    column: () => text(),
    writable: isWritable(o),
    ...searched(o),
  } satisfies FieldDef;
}

/** One word of a vocabulary. */
export function oneOf<const V extends readonly [string, ...string[]], W extends boolean = true>(
  values: V,
  o: Opts<W> = {},
) {
  return {
    schema: Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...meta(o) }),
    column: () => text({ enum: values }),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/** A number; `payload` as for `str`. */
export function num<W extends boolean = true>(
  o: NumOpts<W> & { payload?: { minimum?: number; maximum?: number; exclusiveMinimum?: number } } = {},
) {
  return {
    schema: Type.Number({ ...range(o), ...meta(o) }),
    ...(o.payload ? { input: Type.Number({ ...o.payload, ...meta(o) }) } : {}),
    column: () => doublePrecision(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function int<W extends boolean = true>(o: NumOpts<W> & { small?: boolean } = {}) {
  return {
    schema: Type.Integer({
      minimum: o.minimum ?? (o.small ? -32_768 : -2_147_483_648),
      maximum: o.maximum ?? (o.small ? 32_767 : 2_147_483_647),
      ...meta(o),
    }),
    column: () => (o.small ? smallint() : integer()),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/**
 * A name every record has: never null, and a payload's name is 1–300 characters with at least one
 * that is not white space.
 */
export function name(o: { search?: SearchWeight } = {}) {
  return {
    schema: Type.String(),
    input: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
    column: () => text().notNull(),
    writable: true,
    presence: 'required',
    ...searched(o),
  } as const satisfies FieldDef;
}

/**
 * A yes/no flag that is false until set: never null, and left out of a create it is false.
 * `recordOnly`: the description is the record's, not the payload's.
 */
export function flag(o: Opts<true> & { recordOnly?: boolean } = {}) {
  return {
    schema: Type.Boolean(meta(o)),
    ...(o.recordOnly ? { input: Type.Boolean() } : {}),
    column: () => boolean().notNull().default(false),
    writable: true,
    presence: 'defaulted',
  } as const satisfies FieldDef;
}

/** A non-negative count (negative counts are rejected). */
export const count = <W extends boolean = true>(o: Opts<W> = {}) => int<W>({ minimum: 0, ...o });

export function bool<W extends boolean = true>(o: Opts<W> = {}) {
  return {
    schema: Type.Boolean(meta(o)),
    column: () => boolean(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function strList<W extends boolean = true>(
  o: Opts<W> & { search?: SearchWeight; urls?: boolean } = {},
) {
  return {
    schema: Type.Array(Type.String({ maxLength: 2_000 }), { maxItems: 200, ...meta(o) }),
    // Sources are stored as found, some with unescaped characters (`Tilia_×_europaea`) that the
    // `uri` format refuses: only the scheme is checked.
    ...(o.urls
      ? {
          input: Type.Array(Type.String({ maxLength: 2_000, pattern: HTTP_URL_PATTERN }), {
            maxItems: 200,
            ...meta(o),
          }),
        }
      : {}),
    column: () => text().array(),
    writable: isWritable(o),
    ...searched(o),
  } satisfies FieldDef;
}

export function intList<W extends boolean = true>(o: NumOpts<W> & { maxItems?: number }) {
  return {
    schema: Type.Array(Type.Integer(range(o)), { maxItems: o.maxItems ?? 60, uniqueItems: true, ...meta(o) }),
    column: () => smallint().array(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/** Several words of a vocabulary: a non-empty list, each word once. */
export function oneOfList<const V extends readonly [string, ...string[]], W extends boolean = true>(
  values: V,
  o: Opts<W> = {},
) {
  return {
    schema: Type.Array(Type.Unsafe<V[number]>({ type: 'string', enum: [...values] }), {
      minItems: 1,
      maxItems: values.length,
      uniqueItems: true,
      ...meta(o),
    }),
    column: () => text({ enum: values }).array(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/**
 * An item of a list of objects as its column keeps it: its members in the order the item schema
 * declares them, members left out staying out. Responses are the text the database keeps of each
 * record, and a write answers the record serialised by the schema, so both must write the same
 * members in the same order whatever order a payload or a dataset file gave them in.
 */
export function canonicalItems(
  item: TObject,
  list: readonly Record<string, unknown>[],
): Record<string, unknown>[] {
  const keys = Object.keys(item.properties);
  return list.map((value) =>
    Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])),
  );
}

/**
 * A `json` column holding a list of objects as its canonical text (see canonicalItems). `json`,
 * not `jsonb`: the database writes a record's response text with the column's own text in it, and
 * jsonb would give it back re-spaced and with its members re-ordered by key length.
 */
const jsonList = <T extends TObject>(item: T) =>
  customType<{ data: Static<T>[]; driverData: unknown }>({
    dataType: () => 'json',
    toDriver: (value) => JSON.stringify(canonicalItems(item, value as Record<string, unknown>[])),
    // node-postgres and PGlite parse json themselves; a text is parsed here.
    fromDriver: (value) => (typeof value === 'string' ? JSON.parse(value) : value) as Static<T>[],
  });

/**
 * A list of structured items, each of the shape `item` (an object schema that names its required
 * members and admits no others).
 */
export function objList<T extends TObject, W extends boolean = true>(
  item: T,
  o: Opts<W> & { maxItems?: number } = {},
) {
  return {
    schema: Type.Array(item, { maxItems: o.maxItems ?? 50, ...meta(o) }),
    column: () => jsonList(item)(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/** The item schema of a list of objects, or undefined for any other field. */
export function listItem(def: FieldDef): TObject | undefined {
  const items = (def.schema as { type?: unknown; items?: { type?: unknown } }).items;
  return (def.schema as { type?: unknown }).type === 'array' && items?.type === 'object'
    ? (items as TObject)
    : undefined;
}

export function time<W extends boolean = true>(o: Opts<W> = {}) {
  return {
    schema: Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', ...meta(o) }),
    column: () => timestamp({ withTimezone: true, mode: 'date' }),
    writable: isWritable(o),
  } satisfies FieldDef;
}

/**
 * The field, filtered on by the lists that name it (see `filterParams`). `param` names the query
 * parameter when it is not the field's name.
 */
export function filtered<
  D extends FieldDef,
  const B extends FilterDef['by'] = FilterDef['by'],
  const P extends string = never,
>(
  field: D,
  by: B,
  o: { param?: P; description?: string; key?: string } = {},
): D & { filter: { by: B; param: P } } {
  return {
    ...field,
    filter: {
      by,
      ...(o.key ? { key: o.key } : {}),
      ...(o.param ? { param: o.param } : {}),
      ...(o.description ? { description: o.description } : {}),
    },
  } as D & { filter: { by: B; param: P } };
}

const searched = (o: { search?: SearchWeight }) => (o.search ? { search: o.search } : {});

function range(o: { minimum?: number; maximum?: number; exclusiveMinimum?: number }) {
  return {
    ...(o.minimum === undefined ? {} : { minimum: o.minimum }),
    ...(o.exclusiveMinimum === undefined ? {} : { exclusiveMinimum: o.exclusiveMinimum }),
    ...(o.maximum === undefined ? {} : { maximum: o.maximum }),
  };
}

export type Fields = Record<string, FieldDef>;

type NeverNull = { presence: 'required' | 'defaulted' };
type RecordValue<D extends FieldDef> = D extends NeverNull ? D['schema'] : TNullable<D['schema']>;
type InputSchema<D extends FieldDef> = D extends { input: infer I extends TSchema } ? I : D['schema'];
type InputValue<D extends FieldDef> = D extends NeverNull ? InputSchema<D> : TNullable<InputSchema<D>>;
type CreateValue<D extends FieldDef> = D extends { presence: 'required' }
  ? InputValue<D>
  : TOptional<InputValue<D>>;
type RecordProps<F extends Fields> = { [K in keyof F]: RecordValue<F[K]> };
type CreateProps<F extends Fields> = { [K in keyof F]: CreateValue<F[K]> };
type UpdateProps<F extends Fields> = { [K in keyof F]: TOptional<InputValue<F[K]>> };
type WritableKeys<F extends Fields> = { [K in keyof F]: F[K]['writable'] extends true ? K : never }[keyof F];

const neverNull = (f: FieldDef) => f.presence === 'required' || f.presence === 'defaulted';
function nullable(f: FieldDef, schema: TSchema): TSchema {
  const value = Nullable(schema);
  if (f.nullMeaning === undefined) return value;
  const { description } = schema as { description?: string };
  return Type.Unsafe({
    ...value,
    description: description ? `${description} ${f.nullMeaning}` : f.nullMeaning,
  });
}
const recordValue = (f: FieldDef) => (neverNull(f) ? f.schema : nullable(f, f.schema));
const inputValue = (f: FieldDef) => (neverNull(f) ? (f.input ?? f.schema) : nullable(f, f.input ?? f.schema));

/** Record properties: every field present; an optional field is null when unknown. */
export function recordProps<F extends Fields>(fields: F): RecordProps<F> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, recordValue(f)])) as RecordProps<F>;
}

/**
 * Create properties of the given fields (the writable ones, as the API's payload takes them; with
 * `'all'` every field, as bulk import takes them): required fields required, the others optional; null clears a field.
 */
export function createProps<F extends Fields>(fields: F): CreateProps<Pick<F, WritableKeys<F>>>;
export function createProps<F extends Fields>(fields: F, all: 'all'): CreateProps<F>;
export function createProps(fields: Fields, all?: 'all'): Record<string, TSchema> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => all === 'all' || f.writable)
      .map(([k, f]) => [k, f.presence === 'required' ? inputValue(f) : Type.Optional(inputValue(f))]),
  );
}

/** Update properties: writable fields only, each optional; null clears an optional field. */
export function payloadProps<F extends Fields>(fields: F): UpdateProps<Pick<F, WritableKeys<F>>> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => f.writable)
      .map(([k, f]) => [k, Type.Optional(inputValue(f))]),
  ) as UpdateProps<Pick<F, WritableKeys<F>>>;
}

/** Drizzle columns for the fields, keyed (and named) by the field name, each with its own type. */
export function columns<F extends Fields>(fields: F): { [K in keyof F]: ReturnType<F[K]['column']> } {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.column()])) as {
    [K in keyof F]: ReturnType<F[K]['column']>;
  };
}

/** A filter's value: one of the field's values, or for `contains` one word its items hold. */
type FilterValue<D extends FieldDef> = D extends { filter: { by: 'contains' } }
  ? string
  : Static<D extends { input: infer I extends TSchema } ? I : D['schema']>;
type ParamName<D extends FieldDef, K> = D extends { filter: { param: infer P extends string } }
  ? [P] extends [never]
    ? K
    : P
  : K;
type FilterProps<F extends Fields, N extends keyof F> = {
  [K in N as ParamName<F[K], K>]: TOptional<TUnsafe<FilterValue<F[K]>>>;
};

/** The query parameter of a filtered field: its own name unless the filter names another. */
export function filterParam(field: string, def: FieldDef): string {
  if (!def.filter) throw new Error(`${field} declares no filter`);
  return def.filter.param ?? field;
}

/** What one value of the field's filter is: the field's value, or for `contains` an item (or its `key`). */
function filterValueSchema(def: FieldDef): TSchema {
  const schema = def.input ?? def.schema;
  if (def.filter?.by !== 'contains') return schema;
  const items = (schema as { items?: TSchema }).items;
  if (items === undefined) throw new Error('a contains filter needs a list field');
  const key = def.filter.key;
  if (key === undefined) return items;
  const member = (items as TObject).properties?.[key];
  if (member === undefined) throw new Error(`the items have no member ${key}`);
  return member;
}

/**
 * The query parameters of a list's filters on `names`, in that order: each takes a value of the
 * field (as a payload gives it, never null), with the filter's description; a minimum's parameter
 * says which field it bounds unless the filter describes it.
 */
export function filterParams<F extends Fields, const N extends readonly (keyof F & string)[]>(
  fields: F,
  names: N,
): FilterProps<F, N[number]> {
  return Object.fromEntries(
    names.map((name) => {
      const def = fields[name] as FieldDef;
      const { description: _, ...value } = filterValueSchema(def) as Record<string, unknown>;
      const description =
        def.filter?.description ?? (def.filter?.by === 'minimum' ? `Minimum ${name}.` : undefined);
      const described = description === undefined ? {} : { description };
      return [filterParam(name, def), Type.Optional(Type.Unsafe({ ...value, ...described }))];
    }),
  ) as FilterProps<F, N[number]>;
}
