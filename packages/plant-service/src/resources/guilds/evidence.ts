/**
 * How sure we are of a companion relation, as the guild answers report it, and how much that
 * certainty weighs in their ranking.
 */
import type { SQL } from 'drizzle-orm';
import { companions } from '../../db/tables.js';
import type { EVIDENCE_LEVELS } from '../../schema/vocabularies.js';
import { EvidenceOrNull } from '../companions/schemas.js';

export type Evidence = (typeof EVIDENCE_LEVELS)[number];

export const EvidenceSchema = EvidenceOrNull;

/** The column the guild queries read a relation's evidence from. */
export const COMPANION_EVIDENCE = companions.evidence as unknown as SQL<Evidence | null>;

/** Score a beneficial relation adds on top of its base, by evidence: surer relations rank first. */
export const EVIDENCE_BONUS: Record<Evidence, number> = { scientific: 3, documented: 2, traditional: 1 };
