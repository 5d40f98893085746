/**
 * The fields every catalogue record carries besides its own: identity first (uuid and slug, both
 * fixed at creation), timestamps last. Tables and record schemas spread them around their fields.
 */
import { text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { Type } from 'typebox';
import type { FieldDef } from './fields.js';
import { Timestamp, Uuid } from './types.js';

const stamp = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const identityFields = {
  id: {
    schema: Uuid,
    column: () => uuid().primaryKey().defaultRandom(),
    writable: false,
    presence: 'defaulted',
  },
  slug: {
    schema: Type.String(),
    column: () => text().notNull().unique(),
    writable: false,
    presence: 'defaulted',
  },
} as const satisfies Record<string, FieldDef>;

export const timestampFields = {
  created_at: { schema: Timestamp, column: stamp, writable: false, presence: 'defaulted' },
  updated_at: { schema: Timestamp, column: stamp, writable: false, presence: 'defaulted' },
} as const satisfies Record<string, FieldDef>;
