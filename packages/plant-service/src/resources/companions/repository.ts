import { aliasedTable, and, asc, eq, getTableColumns, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { filterConditions } from '../../db/list-filters.js';
import { companions, species } from '../../db/tables.js';
import {
  COMPANION_LIST_FILTERS,
  type CompanionListQuery,
  type CompanionRelationship,
  type CompanionWithNames,
  companionFields,
  type SpeciesCompanionsQuery,
} from '../../schema/companions.js';

const a = aliasedTable(species, 'a');
const b = aliasedTable(species, 'b');

const relationColumns = getTableColumns(companions);

/** The conditions of the relationship and evidence filters. */
const filtered = (filters: SpeciesCompanionsQuery): SQL[] =>
  filterConditions(companions, companionFields, COMPANION_LIST_FILTERS, filters);

export const companionRepository = {
  listWithNames(ex: Executor, filters: CompanionListQuery = {}): Promise<CompanionWithNames[]> {
    const where = filtered(filters);
    if (filters.species) where.push(or(eq(a.slug, filters.species), eq(b.slug, filters.species)) as SQL);
    return ex
      .select({
        ...relationColumns,
        species_a_scientific: a.name_scientific,
        species_a_de: a.name_de,
        species_a_slug: a.slug,
        species_a_image: a.primary_image_key,
        species_b_scientific: b.name_scientific,
        species_b_de: b.name_de,
        species_b_slug: b.slug,
        species_b_image: b.primary_image_key,
      })
      .from(companions)
      .innerJoin(a, eq(a.id, companions.species_a_id))
      .innerJoin(b, eq(b.id, companions.species_b_id))
      .where(and(...where))
      .orderBy(asc(a.name_scientific), asc(b.name_scientific), asc(companions.id));
  },
  /** Relations where the species is either side, oldest first. */
  ofSpecies(
    ex: Executor,
    speciesId: string,
    filters: SpeciesCompanionsQuery = {},
  ): Promise<CompanionRelationship[]> {
    return ex
      .select(relationColumns)
      .from(companions)
      .where(
        and(
          or(eq(companions.species_a_id, speciesId), eq(companions.species_b_id, speciesId)),
          ...filtered(filters),
        ),
      )
      .orderBy(asc(companions.created_at), asc(companions.id));
  },
  /** The relation between the two species, in either order. */
  async findPair(ex: Executor, x: string, y: string): Promise<{ id: string } | undefined> {
    const rows = await ex
      .select({ id: companions.id })
      .from(companions)
      .where(
        sql`least(${companions.species_a_id}, ${companions.species_b_id}) = least(${x}::uuid, ${y}::uuid)
        and greatest(${companions.species_a_id}, ${companions.species_b_id}) = greatest(${x}::uuid, ${y}::uuid)`,
      )
      .limit(1);
    return rows[0];
  },
  /** Inserts the relation, or nothing when the pair is already stored (in either order). */
  async insertUnlessPaired(
    ex: Executor,
    values: typeof companions.$inferInsert,
  ): Promise<CompanionRelationship | undefined> {
    const rows = await ex.insert(companions).values(values).onConflictDoNothing().returning(relationColumns);
    return rows[0];
  },
  async delete(ex: Executor, id: string): Promise<boolean> {
    const rows = await ex.delete(companions).where(eq(companions.id, id)).returning({ id: companions.id });
    return rows.length > 0;
  },
};
