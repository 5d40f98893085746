/**
 * Field catalogue primitives. A resource declares each of its fields once with one of these
 * helpers; the database columns (db/tables.ts), the TypeBox record/create/update schemas and so
 * the OpenAPI components are all derived from that one declaration.
 */
import {
  boolean,
  doublePrecision,
  integer,
  type PgColumnBuilderBase,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { type TOptional, type TSchema, Type } from 'typebox';
import { Nullable, type TNullable } from './types.js';

export interface FieldDef<S extends TSchema = TSchema, W extends boolean = boolean> {
  /** Schema of a non-null value. */
  readonly schema: S;
  /** Column builder for the field (nullable unless the resource says otherwise). */
  readonly column: () => PgColumnBuilderBase;
  /** Whether the field is part of the create/update payload (spec section 2). */
  readonly writable: W;
}

type Opts<W extends boolean> = { writable?: W; description?: string };
type NumOpts<W extends boolean> = Opts<W> & { minimum?: number; maximum?: number };

const meta = (o: Opts<boolean>) => (o.description ? { description: o.description } : {});
const isWritable = <W extends boolean>(o: Opts<W>) => (o.writable ?? true) as W;

export function str<W extends boolean = true>(o: Opts<W> & { maxLength?: number; pattern?: string } = {}) {
  return {
    schema: Type.String({
      maxLength: o.maxLength ?? 20_000,
      ...(o.pattern === undefined ? {} : { pattern: o.pattern }),
      ...meta(o),
    }),
    column: () => text(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function oneOf<const V extends readonly string[], W extends boolean = true>(
  values: V,
  o: Opts<W> = {},
) {
  return {
    schema: Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...meta(o) }),
    column: () => text(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function num<W extends boolean = true>(o: NumOpts<W> = {}) {
  return {
    schema: Type.Number({ ...range(o), ...meta(o) }),
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

/** A non-negative count (negative counts are rejected). */
export const count = <W extends boolean = true>(o: Opts<W> = {}) => int<W>({ minimum: 0, ...o });

export function bool<W extends boolean = true>(o: Opts<W> = {}) {
  return {
    schema: Type.Boolean(meta(o)),
    column: () => boolean(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function strList<W extends boolean = true>(o: Opts<W> = {}) {
  return {
    schema: Type.Array(Type.String({ maxLength: 2_000 }), { maxItems: 200, ...meta(o) }),
    column: () => text().array(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function intList<W extends boolean = true>(o: NumOpts<W>) {
  return {
    schema: Type.Array(Type.Integer(range(o)), { maxItems: 60, uniqueItems: true, ...meta(o) }),
    column: () => smallint().array(),
    writable: isWritable(o),
  } satisfies FieldDef;
}

export function time<W extends boolean = true>(o: Opts<W> = {}) {
  return {
    schema: Type.Unsafe<Date | string>({ type: 'string', format: 'date-time', ...meta(o) }),
    column: () => timestamp({ withTimezone: true, mode: 'date' }),
    writable: isWritable(o),
  } satisfies FieldDef;
}

function range(o: { minimum?: number; maximum?: number }) {
  return {
    ...(o.minimum === undefined ? {} : { minimum: o.minimum }),
    ...(o.maximum === undefined ? {} : { maximum: o.maximum }),
  };
}

export type Fields = Record<string, FieldDef>;

type NullableProps<F extends Fields> = { [K in keyof F]: TNullable<F[K]['schema']> };
type OptionalNullableProps<F extends Fields> = { [K in keyof F]: TOptional<TNullable<F[K]['schema']>> };
type WritableKeys<F extends Fields> = { [K in keyof F]: F[K]['writable'] extends true ? K : never }[keyof F];

/** Record properties: every field present, null when unknown. */
export function recordProps<F extends Fields>(fields: F): NullableProps<F> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, f]) => [k, Nullable(f.schema)]),
  ) as NullableProps<F>;
}

/** Payload properties: writable fields only, each optional; null clears the field. */
export function payloadProps<F extends Fields>(fields: F): OptionalNullableProps<Pick<F, WritableKeys<F>>> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => f.writable)
      .map(([k, f]) => [k, Type.Optional(Nullable(f.schema))]),
  ) as OptionalNullableProps<Pick<F, WritableKeys<F>>>;
}

/** Drizzle columns for the fields, keyed (and named) by the field name. */
export function columns<F extends Fields>(fields: F): Record<keyof F, PgColumnBuilderBase> {
  return Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.column()])) as Record<
    keyof F,
    PgColumnBuilderBase
  >;
}
