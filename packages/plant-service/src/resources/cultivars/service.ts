/** Cultivar rules: the species must exist; slug = species slug + name; supplier links. */
import type { Database, Executor } from '../../db/client.js';
import type { Page } from '../../db/paging.js';
import { BadRequest, NotFound } from '../../errors.js';
import { slugify } from '../../lib/slug.js';
import type {
  CreateCultivar,
  CreateCultivarSupplier,
  Cultivar,
  CultivarListQuery,
  CultivarSupplier,
  UpdateCultivar,
} from '../../schema/cultivars.js';
import type { EntityImages } from '../images/service.js';
import { withSearch } from '../search/tsquery.js';
import { cultivarSupplierRepository as links, cultivarRepository as repo } from './repository.js';

export function cultivarService({ db }: Database, images?: EntityImages) {
  async function getOrThrow(ex: Executor, ref: string): Promise<Cultivar> {
    const found = await repo.findByRef(ex, ref);
    if (!found) throw new NotFound(`cultivar '${ref}' not found`);
    return found;
  }

  async function speciesSlugOrThrow(ex: Executor, speciesId: string): Promise<string> {
    const slug = await repo.speciesSlug(ex, speciesId);
    if (slug === undefined)
      throw new BadRequest(`species_id: no species with id ${speciesId}`, { field: 'species_id' });
    return slug;
  }

  return {
    list: (q: CultivarListQuery): Promise<Page<Cultivar>> =>
      withSearch(q, (tsquery) => repo.list(db, q, tsquery)),

    get: (ref: string) => getOrThrow(db, ref),

    create(input: CreateCultivar): Promise<Cultivar> {
      return db.transaction(async (tx) => {
        const speciesSlug = await speciesSlugOrThrow(tx, input.species_id);
        return repo.insert(tx, slugify(`${speciesSlug} ${input.name}`), input);
      });
    },

    update(ref: string, input: UpdateCultivar): Promise<Cultivar> {
      return db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        if (input.species_id !== undefined) await speciesSlugOrThrow(tx, input.species_id);
        return repo.update(tx, found.id, input);
      });
    },

    async remove(ref: string): Promise<void> {
      const removeImageObjects = await db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        // Supplier links go with it (ON DELETE CASCADE); its images too: records now, objects
        // after the commit.
        const afterCommit = await images?.detach(tx, 'cultivar', found.id);
        await repo.delete(tx, found.id);
        return afterCommit;
      });
      await removeImageObjects?.();
    },

    async suppliers(ref: string): Promise<CultivarSupplier[]> {
      const found = await getOrThrow(db, ref);
      return links.list(db, found.id);
    },

    addSupplier(ref: string, input: CreateCultivarSupplier): Promise<CultivarSupplier> {
      // An unknown supplier and a link stored twice are the constraints' 400 and 409, so
      // concurrent requests cannot slip between a check and the insert.
      return db.transaction(async (tx) => {
        const cultivar = await getOrThrow(tx, ref);
        return links.insert(tx, { ...input, cultivar_id: cultivar.id });
      });
    },

    async removeSupplier(cultivarId: string, supplierId: string): Promise<void> {
      if (!(await links.delete(db, cultivarId.toLowerCase(), supplierId.toLowerCase()))) {
        throw new NotFound(`cultivar ${cultivarId} has no link to supplier ${supplierId}`);
      }
    },
  };
}
