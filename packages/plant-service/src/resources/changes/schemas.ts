/** Schemas of the change log's routes: the feed, a record's history and revert. */
import { type Static, Type } from 'typebox';
import { Nullable, Paging, Ref, Timestamp, Uuid } from '../../schema/types.js';

/** The kinds of record the log holds, as its entries name them. */
export const CHANGE_KINDS = [
  'family',
  'species',
  'cultivar',
  'supplier',
  'cultivar_supplier',
  'companion',
  'image',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The largest page of the feed. */
export const MAX_FEED_LIMIT = 1000;

const FieldChange = Type.Object(
  {
    old: Type.Unknown({ description: 'The value before (null for a create, or when it had none).' }),
    new: Type.Unknown({ description: 'The value after (null for a delete, or when it was cleared).' }),
  },
  { additionalProperties: false },
);

export const ChangeActorSchema = Type.Object(
  {
    kind: Type.Union(
      [Type.Literal('user'), Type.Literal('token'), Type.Literal('import'), Type.Literal('database')],
      {
        description:
          'user: a signed-in session; token: a personal API token; import: the bulk import; ' +
          'database: a write made directly in SQL.',
      },
    ),
    name: Nullable(
      Type.String({ description: "The editor's display name (user and token writes; null otherwise)." }),
    ),
    user_id: Type.Optional(Nullable(Uuid)),
    email: Type.Optional(
      Nullable(Type.String({ description: "The editor's e-mail address (admins only)." })),
    ),
    token_id: Type.Optional(Nullable(Uuid)),
    token_name: Type.Optional(
      Nullable(Type.String({ description: 'The API token used (admins only; null once revoked).' })),
    ),
    role: Type.Optional(Type.String({ description: 'The database role that wrote (admins only).' })),
  },
  {
    $id: 'ChangeActor',
    additionalProperties: false,
    description: 'Who made a change. Public readers see `kind` and `name`; administrators see the rest too.',
  },
);

export const ChangeSchema = Type.Object(
  {
    position: Type.Integer({ minimum: 1, description: "The change's place in commit order." }),
    committed_at: Timestamp,
    kind: Type.Union(
      CHANGE_KINDS.map((k) => Type.Literal(k)),
      { description: 'The kind of record changed.' },
    ),
    id: Uuid,
    slug: Nullable(Type.String({ description: "The record's slug (kinds without slugs: null)." })),
    op: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
    fields: Type.Record(Type.String(), FieldChange, {
      description:
        'Every changed field with its values before and after. A create lists the fields it set, ' +
        'a delete every field the record had (a tombstone); derived columns and `updated_at` are left out.',
    }),
    actor: Ref(ChangeActorSchema),
    reason: Nullable(Type.String({ description: 'The reason the writer gave (`X-Change-Reason`).' })),
    reverts: Nullable(Type.Integer({ description: 'The position of the change this one reverted.' })),
  },
  { $id: 'Change', additionalProperties: false },
);
export type Change = Static<typeof ChangeSchema>;

const ChangeRef = Ref(ChangeSchema);

export const ChangeFeedQuery = Type.Object(
  {
    after: Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'Changes after this position (0: from the start); pass the previous page’s `next`.',
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: MAX_FEED_LIMIT,
      default: 100,
      description: `Changes per page (1–${MAX_FEED_LIMIT}).`,
    }),
  },
  { additionalProperties: false },
);
export type ChangeFeedQuery = Static<typeof ChangeFeedQuery>;

export const ChangeFeedSchema = Type.Object(
  {
    data: Type.Array(ChangeRef),
    next: Type.Integer({
      minimum: 0,
      description:
        'The `after` to ask with next: the last position on this page, or `after` when it is empty.',
    }),
    last: Type.Integer({
      minimum: 0,
      description: 'The newest committed position when the page was read (0: none yet).',
    }),
  },
  { $id: 'ChangeFeed', additionalProperties: false },
);
export type ChangeFeed = Static<typeof ChangeFeedSchema>;

export const HistoryQuery = Type.Object(
  { page: Paging.page, per_page: Paging.per_page },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryPageSchema = Type.Object(
  { data: Type.Array(ChangeRef), total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer() },
  { $id: 'HistoryPage', additionalProperties: false },
);
export type HistoryPage = Static<typeof HistoryPageSchema>;

export const RevertParams = Type.Object({
  ref: Type.String({ minLength: 1, maxLength: 200, description: 'Slug or uuid of the record.' }),
  change: Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Position of the change.',
  }),
});

export const RevertBody = Type.Object(
  {
    overwrite: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Revert even where later changes touched the same fields (their values are lost).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RevertBody = Static<typeof RevertBody>;

export const changeSchemas = [ChangeActorSchema, ChangeSchema, ChangeFeedSchema, HistoryPageSchema];
