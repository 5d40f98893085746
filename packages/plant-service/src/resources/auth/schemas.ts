/** Schemas of the auth routes. */
import { Type } from 'typebox';
import { MAX_RETURN_TO } from '../../auth/oidc/return-to.js';
import { ErrorBody, Nullable, Ref, Uuid } from '../../schema/types.js';

export const LoginQuery = Type.Object(
  {
    return_to: Type.Optional(
      Type.String({
        maxLength: MAX_RETURN_TO,
        description:
          'Where to go after the login: a path on this service such as `/api/docs` (default `/`). ' +
          'Absolute URLs, `//host` and the `/auth/oidc/` routes are refused with 400.',
      }),
    ),
  },
  { additionalProperties: false },
);

// Providers add parameters of their own (iss, session_state, scope, ...): accept any.
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(
      Type.String({ maxLength: 4096, description: 'Authorization code (required on success).' }),
    ),
    state: Type.String({ maxLength: 512, description: 'The state sent at /auth/oidc/login.' }),
    error: Type.Optional(
      Type.String({ maxLength: 512, description: 'Set by the provider when it refused.' }),
    ),
  },
  { additionalProperties: Type.String({ maxLength: 4096 }) },
);

export const CurrentUser = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Nullable(Type.String()),
    nickname: Nullable(Type.String()),
    admin: Type.Boolean({
      description:
        'Re-evaluated at every login (ADMIN_EMAILS, OIDC_ADMIN_GROUPS); false once the roles lapsed.',
    }),
    can_write: Type.Boolean({
      description: 'Whether this user may create and change records (WRITE_ACCESS and the roles above).',
    }),
    roles_current: Type.Boolean({
      description:
        'false when the identity provider last confirmed the roles (at a sign-in) more than ' +
        'ROLE_REFRESH_SECONDS ago: an API token then acts as a reader until its owner signs in again. ' +
        'A session in that state has already ended (401).',
    }),
  },
  { additionalProperties: false, description: 'The signed-in user.' },
);

/** A redirect: no body, the target in `Location`. */
export const Redirect = (description: string) => ({
  description,
  type: 'null',
  headers: { location: { type: 'string' } },
});

export const errorResponse = (description: string) => ({ ...Ref(ErrorBody), description });
