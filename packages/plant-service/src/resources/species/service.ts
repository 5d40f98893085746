/** Species rules: the family must exist, slug from the scientific name, 409 while cultivars exist. */
import type { Database, Executor } from '../../db/client.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { slugify } from '../../lib/slug.js';
import type { CompanionRelationship, SpeciesCompanionsQuery } from '../../schema/companions.js';
import { rangeProblem } from '../../schema/hardiness.js';
import type {
  CreateSpecies,
  Species,
  SpeciesListQuery,
  SpeciesPage,
  UpdateSpecies,
} from '../../schema/species.js';
import type { FacetCounts } from '../../schema/species-facets.js';
import { companionRepository } from '../companions/repository.js';
import type { EntityImages } from '../images/service.js';
import { withSearch } from '../search/tsquery.js';
import { countFacets, parseFacets } from './facets.js';
import { familyExists, speciesRepository as repo, speciesFilters } from './repository.js';

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

  /** The pattern has passed; a range must still run from the colder zone to the warmer one. */
  function checkHardiness(value: string | null | undefined): void {
    const problem = value ? rangeProblem(value) : null;
    if (problem !== null) {
      throw new BadRequest(`hardiness_zone_usda: ${problem}`, { field: 'hardiness_zone_usda' });
    }
  }

  return {
    /** A page; with `facets`, also the facet counts over the same filtered set. */
    async list(q: SpeciesListQuery): Promise<SpeciesPage> {
      const facetNames = q.facets === undefined ? [] : parseFacets(q.facets);
      let facets: FacetCounts | undefined;
      const page = await withSearch(q, async (tsquery) => {
        const [found, counts] = await Promise.all([
          repo.list(db, q, tsquery),
          facetNames.length > 0 ? countFacets(db, speciesFilters(q, tsquery), facetNames) : undefined,
        ]);
        facets = counts;
        return found;
      });
      if (facetNames.length === 0) return page;
      // A search with nothing searchable matches nothing: every facet is empty.
      return { ...page, facets: facets ?? Object.fromEntries(facetNames.map((name) => [name, []])) };
    },

    get: (ref: string) => getOrThrow(db, ref),

    create(input: CreateSpecies): Promise<Species> {
      checkHardiness(input.hardiness_zone_usda);
      return db.transaction(async (tx) => {
        await checkFamily(tx, input.family_id);
        return repo.insert(tx, slugify(input.name_scientific), input);
      });
    },

    update(ref: string, input: UpdateSpecies): Promise<Species> {
      checkHardiness(input.hardiness_zone_usda);
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

    async companions(ref: string, filters: SpeciesCompanionsQuery = {}): Promise<CompanionRelationship[]> {
      const found = await getOrThrow(db, ref);
      return companionRepository.ofSpecies(db, found.id, filters);
    },
  };
}
