/** Schemas with an $id: registered once, referenced by routes, emitted as OpenAPI components. */

import { CompanionRelationshipSchema, CompanionWithNamesSchema } from '../schema/companions.js';
import { CultivarPageSchema, CultivarSchema, CultivarSupplierSchema } from '../schema/cultivars.js';
import { FamilyPageSchema, FamilySchema } from '../schema/families.js';
import { SpeciesPageSchema, SpeciesSchema } from '../schema/species.js';
import { SupplierListSchema, SupplierSchema } from '../schema/suppliers.js';
import { CalendarSchema } from './calendar/schemas.js';
import { changeSchemas } from './changes/schemas.js';
import { GuildCandidateSchema, GuildCheckSchema, GuildMemberSchema, GuildSchema } from './guilds/schemas.js';
import { ImageSchema } from './images/schemas.js';
import { SearchResultSchema } from './search/schemas.js';

export const sharedSchemas = [
  FamilySchema,
  FamilyPageSchema,
  SpeciesSchema,
  SpeciesPageSchema,
  CultivarSchema,
  CultivarPageSchema,
  CultivarSupplierSchema,
  SupplierSchema,
  SupplierListSchema,
  CompanionRelationshipSchema,
  CompanionWithNamesSchema,
  SearchResultSchema,
  ImageSchema,
  GuildMemberSchema,
  GuildCandidateSchema,
  GuildSchema,
  GuildCheckSchema,
  CalendarSchema,
  ...changeSchemas,
];
