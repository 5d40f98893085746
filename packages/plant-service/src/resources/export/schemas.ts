/** The export stream's line shapes: a dataset record (dataset/kinds.ts) tagged with its `type`. */
import { type TSchema, Type } from 'typebox';
import { KINDS } from '../../dataset/kinds.js';

export const ExportLineSchema = Type.Union(
  KINDS.map((kind) =>
    Type.Object(
      { type: Type.Literal(kind.name), ...(kind.schema.properties as Record<string, TSchema>) },
      {
        additionalProperties: false,
        title: kind.name,
        description: (kind.schema as { description?: string }).description,
      },
    ),
  ),
  { description: 'One line of the export: a record, its kind in `type`.' },
);

export const ExportHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of a dump already held: 304 while the data is unchanged.' }),
  ),
});
