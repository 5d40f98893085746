/** Family rules: slug from the scientific name (stable afterwards), 404s, and the 409 on delete. */
import type { Database } from '../../db/client.js';
import type { Page } from '../../db/paging.js';
import { Conflict, NotFound } from '../../errors.js';
import { slugify } from '../../lib/slug.js';
import type { CreateFamily, Family, FamilyListQuery, UpdateFamily } from '../../schema/families.js';
import type { EntityImages } from '../images/service.js';
import { withSearch } from '../search/tsquery.js';
import { familyRepository as repo } from './repository.js';

export function familyService({ db }: Database, images?: EntityImages) {
  return {
    list: (q: FamilyListQuery): Promise<Page<Family>> =>
      withSearch(q, (tsquery) => repo.list(db, q, tsquery)),

    async get(ref: string): Promise<Family> {
      const family = await repo.findByRef(db, ref);
      if (!family) throw new NotFound(`family '${ref}' not found`);
      return family;
    },

    create(input: CreateFamily): Promise<Family> {
      return repo.insert(db, slugify(input.name_scientific), input);
    },

    update(ref: string, input: UpdateFamily): Promise<Family> {
      return db.transaction(async (tx) => {
        const family = await repo.findByRef(tx, ref);
        if (!family) throw new NotFound(`family '${ref}' not found`);
        return repo.update(tx, family.id, input);
      });
    },

    async remove(ref: string): Promise<void> {
      const removeImageObjects = await db.transaction(async (tx) => {
        const family = await repo.findByRef(tx, ref);
        if (!family) throw new NotFound(`family '${ref}' not found`);
        const n = await repo.countSpecies(tx, family.id);
        if (n > 0) {
          throw new Conflict(`family '${family.slug}' still has ${n} species; delete or move them first`, {
            species_count: n,
          });
        }
        // Its images go with it: records now, objects after the commit.
        const afterCommit = await images?.detach(tx, 'family', family.id);
        await repo.delete(tx, family.id);
        return afterCommit;
      });
      await removeImageObjects?.();
    },
  };
}
