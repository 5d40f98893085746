/** Schemas of the personal API token routes. */
import { Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../../schema/types.js';

export const CreateTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'What the token is for, to recognise it in the list.',
      examples: ['nightly import'],
    }),
    expires_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When the token stops working: in the future and at most TOKEN_MAX_DAYS (default 365 days) ahead, ' +
          'else 400. Absent: TOKEN_DEFAULT_DAYS (default 90 days) from now. Every token expires; `null` is ' +
          'refused (400).',
        examples: ['2027-06-30T00:00:00Z'],
      }),
    ),
  },
  { additionalProperties: false },
);

const tokenFields = {
  id: Uuid,
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: Nullable(
    Type.Unsafe<Date | string>({
      type: 'string',
      format: 'date-time',
      description: 'Last authenticated request, to the minute.',
    }),
  ),
  expires_at: Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    description: 'When the token stops working; from then on it is a 401.',
  }),
};

export const TokenSchema = Type.Object(
  {
    ...tokenFields,
    user_id: Uuid,
    user_email: Type.String({ description: "The owner's email." }),
  },
  { additionalProperties: false, description: 'A personal API token, without its secret.' },
);

export const CreatedTokenSchema = Type.Object(
  {
    ...tokenFields,
    token: Type.String({
      description: 'The secret, shown this once: `plants_pat_` followed by 75 characters.',
      examples: ['plants_pat_0d4f3c1e9b2a4f6e8c7d5b3a1f0e9d8cQk3v1X7m0pB8nR2sT5wY9zA4cE6gH1jL3oN7qU0xZ2b'],
    }),
  },
  { additionalProperties: false, description: 'The new token, with its secret.' },
);

export const TokenListQuery = Type.Object(
  {
    all: Type.Optional(
      Type.Boolean({ description: "true: every user's tokens (administrators only; 403 otherwise)." }),
    ),
  },
  { additionalProperties: false },
);

export const TokenList = Type.Object({ data: Type.Array(TokenSchema) }, { additionalProperties: false });

export const TokenParams = Type.Object({ id: Uuid }, { additionalProperties: false });
