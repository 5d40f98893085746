/**
 * How sure we are of a companion relation, as the guild answers report it: `scientific` (a
 * peer-reviewed study of the pair or its mechanism), `documented` (extension services, trials,
 * grower reports naming the pair), `traditional` (garden lore), or null (unknown).
 */
import { type SQL, sql } from 'drizzle-orm';
import { Type } from 'typebox';

export const EVIDENCE_LEVELS = ['scientific', 'documented', 'traditional'] as const;
export type Evidence = (typeof EVIDENCE_LEVELS)[number];

export const EvidenceSchema = Type.Unsafe<Evidence | null>({
  type: ['string', 'null'],
  enum: [...EVIDENCE_LEVELS, null],
  description: 'scientific, documented, traditional, or null when unknown.',
});

/**
 * The single place the guild queries read a relation's evidence from. Relations do not record
 * evidence yet, so every relation's evidence reads as unknown; once they do, this fragment is
 * that column and nothing else changes.
 */
export const COMPANION_EVIDENCE: SQL<Evidence | null> = sql<Evidence | null>`NULL::text`;

/** Score a beneficial relation adds on top of its base, by evidence: surer relations rank first. */
export const EVIDENCE_BONUS: Record<Evidence, number> = { scientific: 3, documented: 2, traditional: 1 };
