/** Species rules: the family must exist, slug from the scientific name, 409 while cultivars exist. */
import type { Database, Executor } from '../../db/client.js';
import { transaction } from '../../db/transaction.js';
import { BadRequest, Conflict } from '../../errors.js';
import { type JsonText, pageJson } from '../../lib/json-text.js';
import { slugify } from '../../lib/slug.js';
import type { CompanionRelationship, SpeciesCompanionsQuery } from '../../schema/companions.js';
import type {
  CreateSpecies,
  Species,
  SpeciesListQuery,
  SpeciesPage,
  UpdateSpecies,
} from '../../schema/species.js';
import type { FacetCounts } from '../../schema/species-facets.js';
import { speciesValueProblems } from '../../schema/species-rules.js';
import type { Catalogue } from '../catalogue.js';
import { companionRepository } from '../companions/repository.js';
import { withSearch } from '../search/tsquery.js';
import { countFacets, parseFacets } from './facets.js';
import { speciesFilters, speciesRepository } from './repository.js';

export function speciesService({ db }: Database, { species: repo, families }: Catalogue) {
  async function checkFamily(ex: Executor, familyId: string | undefined): Promise<void> {
    if (familyId !== undefined && !(await families.exists(ex, familyId))) {
      throw new BadRequest(`family_id: no family with id ${familyId}`, { field: 'family_id' });
    }
  }

  /** The schema has passed; what it cannot say (see species-rules.ts) is checked here. */
  function checkValues(input: CreateSpecies | UpdateSpecies): void {
    const [first] = speciesValueProblems(input);
    if (first !== undefined) throw new BadRequest(`${first.field}: ${first.problem}`, { field: first.field });
  }

  return {
    /** A page; with `facets`, also the facet counts over the same filtered set. */
    async list(q: SpeciesListQuery): Promise<JsonText<SpeciesPage>> {
      const facetNames = q.facets === undefined ? [] : parseFacets(q.facets);
      let facets: FacetCounts | undefined;
      const page = await withSearch(q, async (tsquery) => {
        const [found, counts] = await Promise.all([
          repo.page(db, speciesRepository.listing(q, tsquery), q),
          facetNames.length > 0 ? countFacets(db, speciesFilters(q, tsquery), facetNames) : undefined,
        ]);
        facets = counts;
        return found;
      });
      if (facetNames.length === 0) return pageJson(page);
      // A search with nothing searchable matches nothing: every facet is empty.
      return pageJson(page, { facets: facets ?? Object.fromEntries(facetNames.map((name) => [name, []])) });
    },

    get: (ref: string): Promise<JsonText<Species>> => repo.getText(db, ref),

    create(input: CreateSpecies): Promise<Species> {
      checkValues(input);
      return transaction(db, async ({ tx }) => {
        await checkFamily(tx, input.family_id);
        return repo.insert(tx, slugify(input.name_scientific), input);
      });
    },

    update(ref: string, input: UpdateSpecies): Promise<Species> {
      checkValues(input);
      return transaction(db, async ({ tx }) => {
        const found = await repo.get(tx, ref);
        await checkFamily(tx, input.family_id);
        return repo.update(tx, found.id, input);
      });
    },

    remove(ref: string): Promise<void> {
      return transaction(db, async (t) => {
        const found = await repo.get(t.tx, ref);
        const n = await speciesRepository.countCultivars(t.tx, found.id);
        if (n > 0) {
          throw new Conflict(`species '${found.slug}' still has ${n} cultivars; delete them first`, {
            cultivar_count: n,
          });
        }
        // Companion relations go with it (ON DELETE CASCADE), its images too (the image
        // service's remove hook).
        await speciesRepository.clearRootstockReferences(t.tx, found.id);
        await repo.remove(t, found.id);
      });
    },

    async companions(ref: string, filters: SpeciesCompanionsQuery = {}): Promise<CompanionRelationship[]> {
      const found = await repo.get(db, ref);
      return companionRepository.ofSpecies(db, found.id, filters);
    },
  };
}
