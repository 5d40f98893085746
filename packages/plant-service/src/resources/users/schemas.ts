/** Schemas of the user administration routes. */
import { Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../schema/types.js';

export const UserSchema = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Nullable(Type.String()),
    nickname: Nullable(Type.String()),
    admin: Type.Boolean({ description: 'As the provider said at the last sign-in.' }),
    editor: Type.Boolean({ description: 'As the provider said at the last sign-in.' }),
    created_at: Timestamp,
    last_login_at: Nullable(Timestamp),
    roles_checked_at: Type.Unsafe<Date | string>({
      type: 'string',
      format: 'date-time',
      description: 'When the provider last confirmed the roles; they lapse ROLE_REFRESH_SECONDS later.',
    }),
    disabled_at: Nullable(
      Type.Unsafe<Date | string>({
        type: 'string',
        format: 'date-time',
        description: 'When an administrator disabled the user; null: enabled.',
      }),
    ),
    disabled_by: Nullable(
      Type.Unsafe<string>({ type: 'string', format: 'uuid', description: 'The administrator who did.' }),
    ),
  },
  { additionalProperties: false, description: 'A user of this service, as an administrator sees it.' },
);

export const UserList = Type.Object({ data: Type.Array(UserSchema) }, { additionalProperties: false });

export const DisabledUser = Type.Object(
  {
    ...UserSchema.properties,
    sessions_ended: Type.Integer({ minimum: 0, description: 'Sessions ended by this request.' }),
    tokens_revoked: Type.Integer({ minimum: 0, description: 'API tokens revoked by this request.' }),
  },
  { additionalProperties: false, description: 'The disabled user, and what disabling ended.' },
);

export const UserParams = Type.Object({ id: Uuid }, { additionalProperties: false });
