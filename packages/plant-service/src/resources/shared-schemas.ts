/** Schemas with an $id: registered once, referenced by routes, emitted as OpenAPI components. */
import { CalendarSchema } from './calendar/schemas.js';
import { CompanionRelationshipSchema, CompanionWithNamesSchema } from './companions/schemas.js';
import { CultivarPageSchema, CultivarSchema, CultivarSupplierSchema } from './cultivars/schemas.js';
import { FamilyPageSchema, FamilySchema } from './families/schemas.js';
import { GuildCandidateSchema, GuildCheckSchema, GuildMemberSchema, GuildSchema } from './guilds/schemas.js';
import { ImageSchema } from './images/schemas.js';
import { SearchResultSchema } from './search/schemas.js';
import { SpeciesPageSchema, SpeciesSchema } from './species/schemas.js';
import { SupplierListSchema, SupplierSchema } from './suppliers/schemas.js';

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
];
