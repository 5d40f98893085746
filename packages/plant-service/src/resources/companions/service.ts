/**
 * Companion rules: a pair is stored once whichever order it was given (a duplicate in
 * either order is a 409); a species paired with itself or an unknown species is a 400.
 */
import type { Database } from '../../db/client.js';
import { BadRequest, Conflict, NotFound } from '../../errors.js';
import type {
  CompanionListQuery,
  CompanionRelationship,
  CompanionWithNames,
  CreateCompanion,
} from '../../schema/companions.js';
import { companionRepository as repo } from './repository.js';

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
      // No check before the insert: an unknown species is the foreign key's 400, and a pair
      // stored meanwhile by a concurrent request is found after the insert did nothing.
      return db.transaction(async (tx) => {
        const created = await repo.insertUnlessPaired(tx, { ...input, species_a_id: a, species_b_id: b });
        if (created) return created;
        const existing = await repo.findPair(tx, a, b);
        throw new Conflict(`these species already have a companion relation (${existing?.id})`, {
          existing_id: existing?.id,
        });
      });
    },

    async remove(id: string): Promise<void> {
      // In a transaction, as every write is: its begin declares the writer to the change log.
      if (!(await db.transaction((tx) => repo.delete(tx, id.toLowerCase()))))
        throw new NotFound(`companion relation ${id} not found`);
    },
  };
}
