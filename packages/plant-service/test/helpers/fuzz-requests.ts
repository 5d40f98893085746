/**
 * Requests generated from the served OpenAPI document (fast-check arbitraries): for every
 * operation, path refs, every query parameter and JSON bodies — values valid for their schema
 * mixed with hostile ones (huge and non-finite numbers, NUL and control characters, unicode,
 * 10 KB and 500 KB strings, 100,000-element arrays, repeated parameters, wrong types, nulls,
 * nesting 200 and 5,000 deep, `__proto__` keys, invalid UTF-8, wrong content types) — and
 * multipart uploads, with or without a session.
 */
import fc from 'fast-check';
import type { OpenApiDocument, OpenApiOperation } from './contract.js';
import { multipartForm } from './storage-multipart.js';

export interface FuzzRequest {
  method: string;
  url: string;
  /** Path template and method, for counting. */
  operation: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  session: 'none' | 'writer' | 'admin';
  /** The JSON body as sent, when it was an object (for the read-back check). */
  json?: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

const hostileText = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u0001\u001f\u007f',
    '\u202e',
    '💩🌱',
    'ß\u0301',
    '%00',
    '../..',
    "'; --",
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constant('x'.repeat(10_240)),
);
const hostileNumber = fc.constantFrom(
  '99999999999999999999',
  '1e309',
  '-1e309',
  'Infinity',
  '-Infinity',
  'NaN',
  '-1',
  '0',
  '1.5',
  '0x10',
  '',
  '2147483648',
  '-9223372036854775809',
);
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(1e308, -1, 0.5, 2 ** 53, true, 'text', '\u0000', [], {}),
  hostileText,
  fc.constant(JSON.parse('{"__proto__":{"polluted":true}}')),
  fc.constant({ constructor: { prototype: { polluted: true } } }),
  fc.constant(nested(200)),
  // Within the body limit, but long: a string of 500,000 characters, an array of 100,000 numbers.
  fc.constant('x'.repeat(500_000)),
  fc.constant(Array.from({ length: 100_000 }, (_, i) => i)),
);

/** 5,000 nested arrays or objects in 10-30 KB, far beyond the service's depth limit. */
const deepArrays = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
const deepObjects = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let i = 0; i < 5 && typeof current.$ref === 'string'; i++) {
    const name = current.$ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '');
    current = (document.components?.schemas?.[name] as Schema | undefined) ?? {};
  }
  return current;
}

/** A value valid for `schema` (as far as the generator knows the keywords). */
function valid(document: OpenApiDocument, raw: Schema | undefined, refs: string[]): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(Boolean) as string[];
  const options = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({
          min: Math.max(Number(schema.minimum ?? -1000), -1_000_000),
          max: Math.min(Number(schema.maximum ?? 1000), 1_000_000),
        });
      case 'number':
        return fc.double({
          min: Number(schema.minimum ?? -1000),
          max: Number(schema.maximum ?? 1000),
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'array':
        return fc.array(valid(document, schema.items as Schema, refs), { maxLength: 3 });
      case 'object':
        return validObject(document, schema, refs);
      default:
        return validString(schema, refs);
    }
  });
  return options.length > 0 ? fc.oneof(...options) : fc.constant('x');
}

function validString(schema: Schema, refs: string[]): fc.Arbitrary<string> {
  if (schema.format === 'uuid')
    return refs.length > 0 ? fc.oneof(fc.uuid(), fc.constantFrom(...refs)) : fc.uuid();
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.constantFrom('2024-02-29', '2025-12-31');
  const maxLength = Math.min(Number(schema.maxLength ?? 40), 40);
  const minLength = Math.min(Number(schema.minLength ?? 1), maxLength);
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function validObject(
  document: OpenApiDocument,
  schema: Schema,
  refs: string[],
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const entries = Object.entries(properties).filter(([, p]) => !p.readOnly);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of entries) record[name] = valid(document, property, refs);
  return fc.record(record, { requiredKeys: entries.map(([n]) => n).filter((n) => required.has(n)) });
}

/** A body: mostly schema-valid objects, some with one field broken, some not JSON at all. */
function body(document: OpenApiDocument, schema: Schema | undefined, refs: string[]) {
  const object = validObject(document, resolve(document, schema), refs);
  const broken = fc
    .tuple(object, fc.string({ maxLength: 30 }), hostileJson, fc.boolean())
    .map(([o, key, value, existing]) => {
      const keys = Object.keys(o);
      const name =
        existing && keys.length > 0 ? (keys[key.length % keys.length] as string) : key || '__proto__';
      return { ...o, [name]: value };
    });
  return fc.oneof(
    { weight: 4, arbitrary: object.map((o) => ({ kind: 'json' as const, value: o as unknown })) },
    { weight: 4, arbitrary: broken.map((o) => ({ kind: 'json' as const, value: o as unknown })) },
    { weight: 1, arbitrary: hostileJson.map((v) => ({ kind: 'json' as const, value: v })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        {
          kind: 'raw' as const,
          value: Buffer.from('{"name":"\xff\xfe"}', 'latin1'),
          type: 'application/json',
        },
        { kind: 'raw' as const, value: Buffer.from('{"name_scientific": '), type: 'application/json' },
        {
          kind: 'raw' as const,
          value: Buffer.from('name_scientific=x'),
          type: 'application/x-www-form-urlencoded',
        },
        { kind: 'raw' as const, value: Buffer.from('<x/>'), type: 'application/xml' },
        { kind: 'raw' as const, value: Buffer.from('{}'), type: 'text/plain' },
        { kind: 'raw' as const, value: Buffer.from(''), type: 'application/json' },
        { kind: 'raw' as const, value: Buffer.from(deepArrays), type: 'application/json' },
        { kind: 'raw' as const, value: Buffer.from(deepObjects), type: 'application/json' },
        { kind: 'raw' as const, value: Buffer.from(`{"a":${deepArrays}}`), type: 'application/json' },
      ),
    },
  );
}

/** Multipart forms for the upload: well formed, without a boundary, truncated, or garbage. */
function multipart(refs: string[], image: Buffer) {
  const entity = fc.oneof(fc.uuid(), refs.length > 0 ? fc.constantFrom(...refs) : fc.uuid(), hostileText);
  const form = fc
    .tuple(
      fc.constantFrom('species', 'cultivar', 'family', 'x\u0000'),
      entity,
      fc.constantFrom(image, Buffer.from('GIF89a')),
    )
    .map(([type, id, data]) =>
      multipartForm([
        { name: 'entity_type', value: type },
        { name: 'entity_id', value: id },
        { name: 'file', filename: 'f.png', contentType: 'image/png', data },
      ]),
    );
  return fc.oneof(
    form.map((f) => ({ payload: f.payload, type: f.headers['content-type'] as string })),
    form.map((f) => ({ payload: f.payload, type: 'multipart/form-data' })),
    form.map((f) => ({
      payload: f.payload.subarray(0, f.payload.length >> 1),
      type: f.headers['content-type'] as string,
    })),
    fc
      .uint8Array({ maxLength: 200 })
      .map((b) => ({ payload: Buffer.from(b), type: 'multipart/form-data; boundary=x' })),
  );
}

function queryValue(
  document: OpenApiDocument,
  schema: Schema | undefined,
  refs: string[],
): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: valid(document, schema, refs).map((v) => String(v)) },
    { weight: 1, arbitrary: hostileNumber },
    { weight: 1, arbitrary: hostileText },
  );
}

interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
}

function operationRequests(
  document: OpenApiDocument,
  path: string,
  method: string,
  operation: OpenApiOperation & {
    parameters?: Parameter[];
    requestBody?: { content?: Record<string, { schema?: Schema }> };
  },
  refs: string[],
  image: Buffer,
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof(
        { weight: 3, arbitrary: refs.length > 0 ? fc.constantFrom(...refs) : fc.uuid() },
        { weight: 2, arbitrary: valid(document, p.schema, refs).map(String) },
        { weight: 1, arbitrary: hostileText },
      ),
    ),
  );
  const query = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(
        fc.oneof(
          { weight: 4, arbitrary: queryValue(document, p.schema, refs).map((v) => [v]) },
          // The same parameter twice.
          {
            weight: 1,
            arbitrary: fc.tuple(queryValue(document, p.schema, refs), queryValue(document, p.schema, refs)),
          },
        ),
        { freq: 2 },
      ),
    ),
  );
  const content = operation.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const isMultipart = 'multipart/form-data' in content;
  const payload: fc.Arbitrary<
    { payload?: string | Buffer; type?: string; json?: Record<string, unknown> } | undefined
  > = isMultipart
    ? multipart(refs, image)
    : jsonSchema
      ? body(document, jsonSchema, refs).map((b) =>
          b.kind === 'json'
            ? {
                payload: JSON.stringify(b.value),
                type: 'application/json',
                ...(b.value && typeof b.value === 'object' && !Array.isArray(b.value)
                  ? { json: b.value as Record<string, unknown> }
                  : {}),
              }
            : { payload: b.value, type: b.type },
        )
      : fc.constant(undefined);
  return fc
    .record({
      pathValues,
      query,
      payload,
      session: fc.constantFrom('none' as const, 'writer' as const, 'writer' as const, 'admin' as const),
    })
    .map(({ pathValues, query, payload, session }): FuzzRequest => {
      let url = path;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, encodeURIComponent(String(pathValues[i])));
      });
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        for (const v of query[i] ?? []) search.append(p.name, v);
      });
      const qs = search.toString();
      return {
        method: method.toUpperCase(),
        url: qs ? `${url}?${qs}` : url,
        operation: `${method.toUpperCase()} ${path}`,
        headers: payload?.type ? { 'content-type': payload.type } : ({} as Record<string, string>),
        ...(payload?.payload !== undefined ? { payload: payload.payload } : {}),
        ...(payload?.json ? { json: payload.json } : {}),
        session,
      };
    });
}

/** Requests for every operation of the document except those in `skip` (`GET /path`). */
export function fuzzRequests(
  document: OpenApiDocument,
  refs: string[],
  image: Buffer,
  skip: Set<string>,
): fc.Arbitrary<FuzzRequest> {
  const all: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (skip.has(`${method.toUpperCase()} ${path}`)) continue;
      all.push(operationRequests(document, path, method, operation as never, refs, image));
    }
  }
  return fc.oneof(...all);
}
