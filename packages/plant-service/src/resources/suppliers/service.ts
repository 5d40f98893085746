/** Supplier rules: slug from the name; deleting a supplier removes its cultivar links. */
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteById, findByRef, insertWithSlug, listAll, updateById } from '../../db/records.js';
import { suppliers } from '../../db/tables.js';
import { NotFound } from '../../errors.js';
import { slugify } from '../../lib/slug.js';
import type { CreateSupplier, Supplier, UpdateSupplier } from '../../schema/suppliers.js';

export function supplierService({ db }: Database) {
  async function getOrThrow(ex: Parameters<typeof findByRef>[0], ref: string): Promise<Supplier> {
    const found = await findByRef<Supplier>(ex, suppliers, ref);
    if (!found) throw new NotFound(`supplier '${ref}' not found`);
    return found;
  }

  return {
    list: (): Promise<Supplier[]> =>
      listAll<Supplier>(db, suppliers, [asc(suppliers.name), asc(suppliers.id)]),
    get: (ref: string) => getOrThrow(db, ref),
    create: (input: CreateSupplier) => insertWithSlug<Supplier>(db, suppliers, slugify(input.name), input),
    update(ref: string, input: UpdateSupplier): Promise<Supplier> {
      return db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        return updateById<Supplier>(tx, suppliers, found.id, input);
      });
    },
    remove(ref: string): Promise<void> {
      return db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        // Its cultivar links go with it (ON DELETE CASCADE).
        await deleteById(tx, suppliers, found.id);
      });
    },
  };
}
