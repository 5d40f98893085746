import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/** A value of `T` or null, written as a JSON Schema type array (OpenAPI 3.1 style) so the
 * serializer handles it natively instead of trying anyOf branches. A vocabulary (`enum`) lists
 * null among its values too, or a validator would still reject the null the type allows. */
export type TNullable<T extends TSchema> = TUnsafe<Static<T> | null>;

export function Nullable<T extends TSchema>(schema: T): TNullable<T> {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  const values = rest.enum;
  return Type.Unsafe<Static<T> | null>({
    ...rest,
    type: [type, 'null'],
    ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
  });
}

/** A reference to a shared schema (registered with `app.addSchema`) that keeps its static type. */
export function Ref<T extends TSchema & { $id?: string }>(schema: T): TUnsafe<Static<T>> {
  if (!schema.$id) throw new Error('Ref() needs a schema with $id');
  return Type.Unsafe<Static<T>>({ $ref: `${schema.$id}#` });
}

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, naming the field or parameter where there is one.' }),
  },
  {
    $id: 'Error',
    additionalProperties: true,
    description: 'Error body. Extra fields (e.g. `field`) may be present.',
  },
);

export const DeletedBody = Type.Object({ deleted: Type.Boolean() }, { $id: 'Deleted' });

export const Paging = {
  // Bounded, so that no page number (1e20, Infinity) makes an offset the database cannot hold.
  page: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 1,
    description: 'Page number, 1-based (at most 1,000,000).',
  }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Records per page (1–100).' }),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Full-text query, as in /api/v1/search.' }),
  ),
};

export function Paginated<T extends TSchema>(record: T, id: string) {
  return Type.Object(
    { data: Type.Array(record), total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer() },
    { $id: id },
  );
}

export const RefParams = Type.Object({
  ref: Type.String({ minLength: 1, maxLength: 200, description: 'Slug or uuid of the record.' }),
});
