/**
 * The catalogue's repositories, one per table, made once per app: they share the list totals
 * and carry the work that goes with removing a record (its images).
 */
import { catalogueRepository, type ListTotals } from '../db/catalogue-repository.js';
import { cultivars, families, species, suppliers } from '../db/tables.js';

export function catalogueRepositories(totals?: ListTotals) {
  return {
    families: catalogueRepository(families, 'family', totals),
    species: catalogueRepository(species, 'species', totals),
    cultivars: catalogueRepository(cultivars, 'cultivar', totals),
    suppliers: catalogueRepository(suppliers, 'supplier', totals),
  };
}

export type Catalogue = ReturnType<typeof catalogueRepositories>;
