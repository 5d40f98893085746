/**
 * The catalogue's repositories, one per table, made once per app: they carry the work that goes
 * with removing a record (its images).
 */
import { catalogueRepository } from '../db/catalogue-repository.js';
import { cultivars, families, species, suppliers } from '../db/tables.js';

export function catalogueRepositories() {
  return {
    families: catalogueRepository(families, 'family'),
    species: catalogueRepository(species, 'species'),
    cultivars: catalogueRepository(cultivars, 'cultivar'),
    suppliers: catalogueRepository(suppliers, 'supplier'),
  };
}

export type Catalogue = ReturnType<typeof catalogueRepositories>;
