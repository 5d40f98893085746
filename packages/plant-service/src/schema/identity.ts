/**
 * The fields every catalogue record carries besides its own: identity first (uuid and slug, both
 * fixed at creation), timestamps last. Tables and record schemas spread them around their fields.
 */
import { text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import type { FieldDef } from './fields.js';
import { Timestamp, Uuid } from './types.js';

const stamp = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** The uuid alone, for records that have no slug (links and relations). */
export const idField = {
  id: {
    schema: Uuid,
    column: () => uuid().primaryKey().defaultRandom(),
    writable: false,
    presence: 'defaulted',
  },
} as const satisfies Record<string, FieldDef>;

export const identityFields = {
  ...idField,
  slug: {
    schema: Type.String(),
    column: () => text().notNull().unique(),
    writable: false,
    presence: 'defaulted',
  },
} as const satisfies Record<string, FieldDef>;

/** The creation time alone, for records that are never updated (links and relations). */
export const createdField = {
  created_at: { schema: Timestamp, column: stamp, writable: false, presence: 'defaulted' },
} as const satisfies Record<string, FieldDef>;

export const timestampFields = {
  ...createdField,
  updated_at: { schema: Timestamp, column: stamp, writable: false, presence: 'defaulted' },
} as const satisfies Record<string, FieldDef>;
