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

/**
 * The planner fields' vocabularies (packages/plant-service/data/README.md says how the dataset
 * fills them; null is always "not known").
 */
export const LEGAL_STATUS_KINDS = ['union_list_invasive', 'banned', 'sale_banned', 'protected'] as const;
export const HAZARD_KINDS = ['toxic', 'phototoxic', 'irritant', 'lookalike'] as const;
/** Parts of a plant a hazard names. */
export const PLANT_PARTS = [
  'whole',
  'root',
  'bulb',
  'tuber',
  'stem',
  'bark',
  'leaf',
  'flower',
  'fruit',
  'seed',
  'sap',
  'pollen',
] as const;
/** Parts of a plant people eat: the hazard parts, and shoots, pods and nuts. */
export const EDIBLE_PARTS = [...PLANT_PARTS, 'shoot', 'pod', 'nut'] as const;
export const LIFE_CYCLES = ['annual', 'biennial', 'perennial'] as const;
export const LEAF_RETENTIONS = ['deciduous', 'semi_evergreen', 'evergreen'] as const;
export const LIGHT_LEVELS = ['full_sun', 'partial_shade', 'shade'] as const;
export const FLOWER_SEXES = ['hermaphrodite', 'monoecious', 'dioecious', 'polygamous'] as const;
export const NUTRIENT_DEMANDS = ['low', 'medium', 'high'] as const;
