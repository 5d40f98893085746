/**
 * Allowed values of the enumerated string fields: the API's decision, documented in the OpenAPI
 * description and packages/plant-service/data/README.md.
 */
export const PLANT_LAYERS = [
  'canopy',
  'sub_canopy',
  'shrub',
  'herb',
  'ground_cover',
  'climber',
  'root',
  'aquatic',
] as const;
export const TOLERANCE_LEVELS = ['low', 'medium', 'high'] as const;
/** Status in Central Europe. */
export const NATIVE_STATUSES = ['native', 'archaeophyte', 'neophyte', 'introduced'] as const;
export const SUCCESSION_STAGES = ['pioneer', 'early', 'mid', 'late', 'climax'] as const;
export const RELATIONSHIPS = ['beneficial', 'antagonistic', 'neutral'] as const;
/**
 * How well a companion relation is supported: `scientific` (a peer-reviewed study of the pair or its
 * mechanism), `documented` (extension services, trials or grower reports naming the pair),
 * `traditional` (garden lore).
 */
export const EVIDENCE_LEVELS = ['scientific', 'documented', 'traditional'] as const;
export const ENTITY_TYPES = ['family', 'species', 'cultivar'] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];
