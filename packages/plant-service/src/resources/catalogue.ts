/**
 * The catalogue's repositories, one per table, made once per app: they share the list totals
 * and carry the work that goes with removing a record (its images).
 */
import { catalogueRepository, type ListTotals, type RecordTexts } from '../db/catalogue-repository.js';
import { cultivars, families, species, suppliers } from '../db/tables.js';

export function catalogueRepositories(totals?: ListTotals, texts?: RecordTexts) {
  return {
    families: catalogueRepository(families, 'family', totals, texts),
    species: catalogueRepository(species, 'species', totals, texts),
    cultivars: catalogueRepository(cultivars, 'cultivar', totals, texts),
    suppliers: catalogueRepository(suppliers, 'supplier', totals, texts),
  };
}

export type Catalogue = ReturnType<typeof catalogueRepositories>;
