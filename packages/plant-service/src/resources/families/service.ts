/** Family rules: slug from the scientific name (stable afterwards), 404s, and the 409 on delete. */
import type { Page } from '../../db/catalogue-repository.js';
import type { Database } from '../../db/client.js';
import { transaction } from '../../db/transaction.js';
import { Conflict } from '../../errors.js';
import { type JsonText, pageJson } from '../../lib/json-text.js';
import { slugify } from '../../lib/slug.js';
import type { CreateFamily, Family, FamilyListQuery, UpdateFamily } from '../../schema/families.js';
import type { Catalogue } from '../catalogue.js';
import { withSearch } from '../search/tsquery.js';
import { familyRepository } from './repository.js';

export function familyService({ db }: Database, { families: repo }: Catalogue) {
  return {
    list: async (q: FamilyListQuery): Promise<JsonText<Page<Family>>> =>
      pageJson(await withSearch(q, (tsquery) => repo.page(db, familyRepository.listing(tsquery), q))),

    get: (ref: string): Promise<JsonText<Family>> => repo.getText(db, ref),

    create(input: CreateFamily): Promise<Family> {
      return repo.insert(db, slugify(input.name_scientific), input);
    },

    update(ref: string, input: UpdateFamily): Promise<Family> {
      return transaction(db, async ({ tx }) => {
        const family = await repo.get(tx, ref);
        return repo.update(tx, family.id, input);
      });
    },

    remove(ref: string): Promise<void> {
      return transaction(db, async (t) => {
        const family = await repo.get(t.tx, ref);
        const n = await familyRepository.countSpecies(t.tx, family.id);
        if (n > 0) {
          throw new Conflict(`family '${family.slug}' still has ${n} species; delete or move them first`, {
            species_count: n,
          });
        }
        // Its images go with it (the image service's remove hook).
        await repo.remove(t, family.id);
      });
    },
  };
}
