/** Supplier rules: slug from the name; deleting a supplier removes its cultivar links. */
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { suppliers } from '../../db/tables.js';
import { transaction } from '../../db/transaction.js';
import { type JsonText, jsonArray } from '../../lib/json-text.js';
import { slugify } from '../../lib/slug.js';
import type { CreateSupplier, Supplier, UpdateSupplier } from '../../schema/suppliers.js';
import type { Catalogue } from '../catalogue.js';

export function supplierService({ db }: Database, { suppliers: repo }: Catalogue) {
  return {
    list: async (): Promise<JsonText<Supplier[]>> =>
      jsonArray(await repo.all(db, [asc(suppliers.name), asc(suppliers.id)])),
    get: (ref: string): Promise<JsonText<Supplier>> => repo.getText(db, ref),
    create: (input: CreateSupplier): Promise<Supplier> => repo.insert(db, slugify(input.name), input),
    update(ref: string, input: UpdateSupplier): Promise<Supplier> {
      return transaction(db, async ({ tx }) => {
        const found = await repo.get(tx, ref);
        return repo.update(tx, found.id, input);
      });
    },
    remove(ref: string): Promise<void> {
      return transaction(db, async (t) => {
        const found = await repo.get(t.tx, ref);
        // Its cultivar links go with it (ON DELETE CASCADE).
        await repo.remove(t, found.id);
      });
    },
  };
}
