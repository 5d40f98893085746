/**
 * The catalogue's repositories, one per table, made once per app: they share the list totals
 * and carry the work that goes with removing a record (its images).
 */
import { catalogueRepository, type ListTotals } from '../db/catalogue-repository.js';
import { cultivars, families, species, suppliers } from '../db/tables.js';
import type { Cultivar } from '../schema/cultivars.js';
import type { Family } from '../schema/families.js';
import type { Species } from '../schema/species.js';
import type { Supplier } from '../schema/suppliers.js';

export function catalogueRepositories(totals?: ListTotals) {
  return {
    families: catalogueRepository<Family>(families, 'family', totals),
    species: catalogueRepository<Species>(species, 'species', totals),
    cultivars: catalogueRepository<Cultivar>(cultivars, 'cultivar', totals),
    suppliers: catalogueRepository<Supplier>(suppliers, 'supplier', totals),
  };
}

export type Catalogue = ReturnType<typeof catalogueRepositories>;
