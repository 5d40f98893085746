/** Species rules: the family must exist, slug from the scientific name, 409 while cultivars exist. */
import type { Database, Executor } from '../../db/client.js';
import type { Page } from '../../db/paging.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { slugify } from '../../lib/slug.js';
import { companionRepository } from '../companions/repository.js';
import type { CompanionRelationship } from '../companions/schemas.js';
import type { EntityImages } from '../images/service.js';
import { withSearch } from '../search/tsquery.js';
import { familyExists, speciesRepository as repo } from './repository.js';
import type { CreateSpecies, Species, SpeciesListQuery, UpdateSpecies } from './schemas.js';

export function speciesService({ db }: Database, images?: EntityImages) {
  async function getOrThrow(ex: Executor, ref: string): Promise<Species> {
    const found = await repo.findByRef(ex, ref);
    if (!found) throw new NotFound(`species '${ref}' not found`);
    return found;
  }

  async function checkFamily(ex: Executor, familyId: string | undefined): Promise<void> {
    if (familyId !== undefined && !(await familyExists(ex, familyId))) {
      throw new BadRequest(`family_id: no family with id ${familyId}`, { field: 'family_id' });
    }
  }

  return {
    list: (q: SpeciesListQuery): Promise<Page<Species>> =>
      withSearch(q, (tsquery) => repo.list(db, q, tsquery)),

    get: (ref: string) => getOrThrow(db, ref),

    create(input: CreateSpecies): Promise<Species> {
      return db.transaction(async (tx) => {
        await checkFamily(tx, input.family_id);
        return repo.insert(tx, slugify(input.name_scientific), input);
      });
    },

    update(ref: string, input: UpdateSpecies): Promise<Species> {
      return db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        await checkFamily(tx, input.family_id);
        return repo.update(tx, found.id, input);
      });
    },

    async remove(ref: string): Promise<void> {
      const removeImageObjects = await db.transaction(async (tx) => {
        const found = await getOrThrow(tx, ref);
        const n = await repo.countCultivars(tx, found.id);
        if (n > 0) {
          throw new Conflict(`species '${found.slug}' still has ${n} cultivars; delete them first`, {
            cultivar_count: n,
          });
        }
        // Companion relations go with it (ON DELETE CASCADE).
        await repo.clearRootstockReferences(tx, found.id);
        // Its images go with it: records now, objects after the commit.
        const afterCommit = await images?.detach(tx, 'species', found.id);
        await repo.delete(tx, found.id);
        return afterCommit;
      });
      await removeImageObjects?.();
    },

    async companions(ref: string): Promise<CompanionRelationship[]> {
      const found = await getOrThrow(db, ref);
      return companionRepository.ofSpecies(db, found.id);
    },
  };
}
