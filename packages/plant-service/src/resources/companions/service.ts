/**
 * Companion rules (issue 2): a pair is stored once whichever order it was given (a duplicate in
 * either order is a 409); a species paired with itself or an unknown species is a 400.
 */
import type { Database } from '../../db/client.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import { companionRepository as repo } from './repository.js';
import type {
  CompanionListQuery,
  CompanionRelationship,
  CompanionWithNames,
  CreateCompanion,
} from './schemas.js';

export function companionService({ db }: Database) {
  return {
    list: (filters: CompanionListQuery = {}): Promise<CompanionWithNames[]> =>
      repo.listWithNames(db, filters),

    create(input: CreateCompanion): Promise<CompanionRelationship> {
      const a = input.species_a_id.toLowerCase();
      const b = input.species_b_id.toLowerCase();
      if (a === b) {
        throw new BadRequest('species_b_id: a species cannot be its own companion', {
          field: 'species_b_id',
        });
      }
      return db.transaction(async (tx) => {
        const known = await repo.existingSpecies(tx, [a, b]);
        for (const [field, id] of [
          ['species_a_id', a],
          ['species_b_id', b],
        ] as const) {
          if (!known.has(id)) throw new BadRequest(`${field}: no species with id ${id}`, { field });
        }
        const existing = await repo.findPair(tx, a, b);
        if (existing) {
          throw new Conflict(`these species already have a companion relation (${existing.id})`, {
            existing_id: existing.id,
          });
        }
        return repo.insert(tx, { ...input, species_a_id: a, species_b_id: b });
      });
    },

    async remove(id: string): Promise<void> {
      if (!(await repo.delete(db, id.toLowerCase())))
        throw new NotFound(`companion relation ${id} not found`);
    },
  };
}
