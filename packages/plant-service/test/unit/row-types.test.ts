/**
 * The catalogue's rows and records are derived from the same field declarations: the table's
 * public row type (what the repositories return) must be a record of the API, field for field.
 * The type assertions fail the typecheck when the two diverge; the runtime ones compare the
 * column names the database is asked for with the properties the API documents.
 */
import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TObject } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PublicRow } from '../../src/db/catalogue-repository.js';
import {
  companions,
  cultivarSuppliers,
  cultivars,
  families,
  images,
  species,
  suppliers,
} from '../../src/db/tables.js';
import { type Image, ImageSchema } from '../../src/resources/images/schemas.js';
import { type CompanionRelationship, CompanionRelationshipSchema } from '../../src/schema/companions.js';
import {
  type Cultivar,
  CultivarSchema,
  type CultivarSupplier,
  CultivarSupplierSchema,
} from '../../src/schema/cultivars.js';
import { type Family, FamilySchema } from '../../src/schema/families.js';
import { type Species, SpeciesSchema } from '../../src/schema/species.js';
import { type Supplier, SupplierSchema } from '../../src/schema/suppliers.js';

describe('rows and records', () => {
  it('type every public column as the record property of the same name', () => {
    expectTypeOf<keyof PublicRow<typeof families>>().toEqualTypeOf<keyof Family>();
    expectTypeOf<PublicRow<typeof families>>().toExtend<Family>();
    expectTypeOf<keyof PublicRow<typeof species>>().toEqualTypeOf<keyof Species>();
    expectTypeOf<PublicRow<typeof species>>().toExtend<Species>();
    expectTypeOf<keyof PublicRow<typeof cultivars>>().toEqualTypeOf<keyof Cultivar>();
    expectTypeOf<PublicRow<typeof cultivars>>().toExtend<Cultivar>();
    expectTypeOf<keyof PublicRow<typeof suppliers>>().toEqualTypeOf<keyof Supplier>();
    expectTypeOf<PublicRow<typeof suppliers>>().toExtend<Supplier>();
    expectTypeOf<keyof typeof cultivarSuppliers.$inferSelect>().toEqualTypeOf<keyof CultivarSupplier>();
    expectTypeOf<typeof cultivarSuppliers.$inferSelect>().toExtend<CultivarSupplier>();
    expectTypeOf<keyof typeof companions.$inferSelect>().toEqualTypeOf<keyof CompanionRelationship>();
    expectTypeOf<typeof companions.$inferSelect>().toExtend<CompanionRelationship>();
    expectTypeOf<keyof typeof images.$inferSelect>().toEqualTypeOf<keyof Image>();
    expectTypeOf<typeof images.$inferSelect>().toExtend<Image>();
  });

  it.each<[string, PgTable, TObject]>([
    ['families', families, FamilySchema],
    ['species', species, SpeciesSchema],
    ['cultivars', cultivars, CultivarSchema],
    ['suppliers', suppliers, SupplierSchema],
    ['cultivar_suppliers', cultivarSuppliers, CultivarSupplierSchema],
    ['companions', companions, CompanionRelationshipSchema],
    ['images', images, ImageSchema],
  ])(
    '%s: every record property is a column, and every column but the derived ones a property',
    (_, table, schema) => {
      const derived = ['search', 'names', 'names_text', 'hardiness_min', 'hardiness_max', 'guild_score'];
      const columns = Object.keys(getTableColumns(table)).filter((c) => !derived.includes(c));
      expect(columns.sort()).toEqual(Object.keys(schema.properties).sort());
    },
  );
});
