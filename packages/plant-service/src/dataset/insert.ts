/**
 * Inserts a dataset whose records refer to each other by slug (data/README.md), resolving the
 * references to uuids. Runs inside the caller's transaction.
 */

import type { Tx } from '../db/client.js';
import type { CatalogueTable } from '../db/records.js';
import { companions, cultivarSuppliers, cultivars, families, species, suppliers } from '../db/tables.js';
import type { DatasetFile } from './files.js';

type Row = Record<string, unknown>;

async function insertAll(tx: Tx, table: CatalogueTable, rows: Row[]) {
  const ids = new Map<string, string>();
  for (const row of rows) {
    // Rows were checked against the table's schema before they get here.
    const [inserted] = await tx
      .insert(table)
      .values(row as never)
      .returning({ id: table.id, slug: table.slug });
    if (inserted) ids.set(inserted.slug as string, inserted.id as string);
  }
  return ids;
}

function resolve(ids: Map<string, string>, slug: unknown, what: string): string {
  const id = typeof slug === 'string' ? ids.get(slug) : undefined;
  if (!id) throw new Error(`unknown ${what} '${String(slug)}'`);
  return id;
}

export async function insertDataset(tx: Tx, records: Record<DatasetFile, Row[]>) {
  const familyIds = await insertAll(tx, families, records.families);
  const speciesIds = await insertAll(
    tx,
    species,
    records.species.map(({ family, ...rest }) => ({
      ...rest,
      family_id: resolve(familyIds, family, 'family'),
    })),
  );
  const supplierIds = await insertAll(tx, suppliers, records.suppliers);
  const cultivarIds = await insertAll(
    tx,
    cultivars,
    records.cultivars.map(({ species: s, rootstock_species: rootstock, ...rest }) => ({
      ...rest,
      species_id: resolve(speciesIds, s, 'species'),
      ...(rootstock ? { rootstock_species_id: resolve(speciesIds, rootstock, 'species') } : {}),
    })),
  );
  for (const { cultivar, supplier, ...rest } of records['cultivar-suppliers']) {
    await tx.insert(cultivarSuppliers).values({
      ...rest,
      cultivar_id: resolve(cultivarIds, cultivar, 'cultivar'),
      supplier_id: resolve(supplierIds, supplier, 'supplier'),
    });
  }
  for (const { species_a, species_b, ...rest } of records.companions) {
    await tx.insert(companions).values({
      ...(rest as { relationship: string }),
      species_a_id: resolve(speciesIds, species_a, 'species'),
      species_b_id: resolve(speciesIds, species_b, 'species'),
    });
  }
  return {
    families: familyIds.size,
    species: speciesIds.size,
    suppliers: supplierIds.size,
    cultivars: cultivarIds.size,
    cultivar_suppliers: records['cultivar-suppliers'].length,
    companions: records.companions.length,
  };
}
