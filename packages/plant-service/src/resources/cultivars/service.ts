/** Cultivar rules: the species must exist; slug = species slug + name; supplier links. */
import type { Page } from '../../db/catalogue-repository.js';
import type { Database, Executor } from '../../db/client.js';
import { transaction } from '../../db/transaction.js';
import { BadRequest, NotFound } from '../../errors.js';
import { type JsonText, pageJson } from '../../lib/json-text.js';
import { slugify } from '../../lib/slug.js';
import type {
  CreateCultivar,
  CreateCultivarSupplier,
  Cultivar,
  CultivarListQuery,
  CultivarSupplier,
  UpdateCultivar,
} from '../../schema/cultivars.js';
import type { Catalogue } from '../catalogue.js';
import { withSearch } from '../search/tsquery.js';
import { cultivarRepository, cultivarSupplierRepository as links } from './repository.js';

export function cultivarService({ db }: Database, { cultivars: repo }: Catalogue) {
  async function speciesSlugOrThrow(ex: Executor, speciesId: string): Promise<string> {
    const slug = await cultivarRepository.speciesSlug(ex, speciesId);
    if (slug === undefined)
      throw new BadRequest(`species_id: no species with id ${speciesId}`, { field: 'species_id' });
    return slug;
  }

  return {
    async list(q: CultivarListQuery): Promise<JsonText<Page<Cultivar>>> {
      return pageJson(
        await withSearch(q, (tsquery) => repo.page(db, cultivarRepository.listing(q, tsquery), q)),
      );
    },

    get: (ref: string): Promise<JsonText<Cultivar>> => repo.getText(db, ref),

    create(input: CreateCultivar): Promise<Cultivar> {
      return transaction(db, async ({ tx }) => {
        const speciesSlug = await speciesSlugOrThrow(tx, input.species_id);
        return repo.insert(tx, slugify(`${speciesSlug} ${input.name}`), input);
      });
    },

    update(ref: string, input: UpdateCultivar): Promise<Cultivar> {
      return transaction(db, async ({ tx }) => {
        const found = await repo.get(tx, ref);
        if (input.species_id !== undefined) await speciesSlugOrThrow(tx, input.species_id);
        return repo.update(tx, found.id, input);
      });
    },

    remove(ref: string): Promise<void> {
      return transaction(db, async (t) => {
        const found = await repo.get(t.tx, ref);
        // Supplier links go with it (ON DELETE CASCADE), its images too (the image service's
        // remove hook).
        await repo.remove(t, found.id);
      });
    },

    async suppliers(ref: string): Promise<CultivarSupplier[]> {
      const found = await repo.get(db, ref);
      return links.list(db, found.id);
    },

    addSupplier(ref: string, input: CreateCultivarSupplier): Promise<CultivarSupplier> {
      // An unknown supplier and a link stored twice are the constraints' 400 and 409, so
      // concurrent requests cannot slip between a check and the insert.
      return transaction(db, async ({ tx }) => {
        const cultivar = await repo.get(tx, ref);
        return links.insert(tx, { ...input, cultivar_id: cultivar.id });
      });
    },

    async removeSupplier(cultivarId: string, supplierId: string): Promise<void> {
      // In a transaction, as every write is: its begin declares the writer to the change log.
      const removed = await transaction(db, ({ tx }) =>
        links.delete(tx, cultivarId.toLowerCase(), supplierId.toLowerCase()),
      );
      if (!removed) {
        throw new NotFound(`cultivar ${cultivarId} has no link to supplier ${supplierId}`);
      }
    },
  };
}
