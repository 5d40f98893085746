/** How sure we are of a companion relation, as the guild answers report it. */
import type { SQL } from 'drizzle-orm';
import { companions } from '../../db/tables.js';
import { EvidenceOrNull } from '../../schema/companions.js';
import type { EVIDENCE_LEVELS } from '../../schema/vocabularies.js';

export type Evidence = (typeof EVIDENCE_LEVELS)[number];

export const EvidenceSchema = EvidenceOrNull;

/** The column the guild queries read a relation's evidence from. */
export const COMPANION_EVIDENCE = companions.evidence as unknown as SQL<Evidence | null>;
