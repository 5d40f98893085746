/**
 * The species' fields, declared once. `writable: false` marks the fields the CreateSpecies payload
 * leaves out; they are filled by bulk import only.
 */

import { Type } from 'typebox';
import {
  bool,
  count,
  filtered,
  httpUrl,
  int,
  intList,
  name,
  num,
  objList,
  oneOf,
  oneOfList,
  str,
  strList,
} from './fields.js';
import { ZONE_RANGE_PATTERN } from './hardiness.js';
import { Nullable } from './types.js';
import {
  EDIBLE_PARTS,
  FLOWER_SEXES,
  HAZARD_KINDS,
  LEAF_RETENTIONS,
  LEGAL_STATUS_KINDS,
  LIFE_CYCLES,
  LIGHT_LEVELS,
  NATIVE_STATUSES,
  NUTRIENT_DEMANDS,
  PLANT_LAYERS,
  PLANT_PARTS,
  SUCCESSION_STAGES,
  TOLERANCE_LEVELS,
} from './vocabularies.js';

const importOnly = { writable: false } as const;
const ppm = (unit: 'number' | 'integer') =>
  unit === 'number' ? num({ minimum: 0, ...importOnly }) : count({ ...importOnly });
const rating = (description: string) => int({ minimum: 0, maximum: 4, small: true, description });
const words = <const V extends readonly string[]>(values: V, description?: string) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** Where a statement about a species comes from: only web addresses a reader can open. */
export const SOURCE_URL_PATTERN = '^https?://\\S+$';
const SourceUrl = Type.String({
  maxLength: 2_000,
  pattern: SOURCE_URL_PATTERN,
  description: 'The source: an http or https URL.',
});

/** The code of the jurisdiction a legal status holds in: `EU`, or an ISO 3166-1 alpha-2 country code. */
export const JURISDICTION_PATTERN = '^(EU|[A-Z]{2})$';

/** One legal status of a species, in one jurisdiction. */
export const LegalStatusItem = Type.Object(
  {
    jurisdiction: Type.String({
      pattern: JURISDICTION_PATTERN,
      description: '`EU` or an ISO 3166-1 alpha-2 country code (`CH`, `DE`, `AT`, ...).',
    }),
    kind: words(
      LEGAL_STATUS_KINDS,
      '`union_list_invasive`: on the EU list of invasive alien species of Union concern (keeping, growing, ' +
        'selling and releasing prohibited); `banned`: handling prohibited there; `sale_banned`: selling or ' +
        'giving away prohibited there; `protected`: a protected species there.',
    ),
    source: SourceUrl,
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** One hazard of a species. */
export const HazardItem = Type.Object(
  {
    kind: words(
      HAZARD_KINDS,
      '`toxic`: poisonous parts; `phototoxic`: sap that burns skin in sunlight; `irritant`: skin or mucous ' +
        'membrane irritation; `lookalike`: easily confused with a dangerous species.',
    ),
    parts: Type.Array(words(PLANT_PARTS), {
      maxItems: PLANT_PARTS.length,
      uniqueItems: true,
      description: 'The parts concerned (may be empty for a look-alike).',
    }),
    text_en: Type.String({ maxLength: 500 }),
    text_de: Type.String({ maxLength: 500 }),
    source: SourceUrl,
  },
  { additionalProperties: false },
);

/** One edible part of a species, with what to take care of when preparing it. */
export const EdiblePartItem = Type.Object(
  {
    part: words(EDIBLE_PARTS),
    caution_en: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
    caution_de: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
  },
  { additionalProperties: false },
);

export const speciesFields = {
  // Names and texts
  name_scientific: name({ search: 'A' }),
  name_en: str({ maxLength: 300, search: 'A' }),
  name_de: str({ maxLength: 300, search: 'A' }),
  other_names: strList({
    description: 'Synonyms and further common names in any language (searchable, weighted like names).',
    search: 'A',
  }),
  description: str({ search: 'C' }),
  description_de: str({ search: 'C' }),
  description_en: str({ search: 'C' }),
  // Soil
  soil_moisture: str({ maxLength: 100, ...importOnly }),
  drainage_requirement: str({ maxLength: 100, ...importOnly }),
  organic_matter_pct: num({ minimum: 0, maximum: 100, ...importOnly }),
  boron_ppm: ppm('number'),
  copper_ppm: ppm('number'),
  iron_ppm: ppm('number'),
  manganese_ppm: ppm('number'),
  molybdenum_ppm: ppm('number'),
  zinc_ppm: ppm('number'),
  ph_min: num({ minimum: 0, maximum: 14 }),
  ph_max: num({ minimum: 0, maximum: 14 }),
  nitrogen_ppm: ppm('integer'),
  phosphorus_ppm: ppm('integer'),
  potassium_ppm: ppm('integer'),
  calcium_ppm: ppm('integer'),
  magnesium_ppm: ppm('integer'),
  sulfur_ppm: ppm('integer'),
  // Climate
  hardiness_zone_usda: str({
    maxLength: 20,
    pattern: ZONE_RANGE_PATTERN,
    description:
      'USDA zone `N`, `Na` or `Nb` (1–13), or a range `N-M` / `Na-Mb`, the colder zone first, e.g. `4-8`, `6b-9a`.',
  }),
  hardiness_zone_at: str({ maxLength: 20 }),
  drought_tolerance: filtered(oneOf(TOLERANCE_LEVELS), 'equals'),
  salt_tolerance: oneOf(TOLERANCE_LEVELS),
  min_temp: num({ minimum: -90, maximum: 60, description: '°C' }),
  max_temp: num({ minimum: -90, maximum: 60, description: '°C' }),
  water_requirement_mm_week: num({ minimum: 0, ...importOnly }),
  waterlogging_tolerance: bool(importOnly),
  // Use
  edibility_rating: int({ minimum: 0, maximum: 5, small: true, description: '0 (not edible) to 5.' }),
  food_uses: str(),
  food_uses_de: str(),
  food_uses_en: str(),
  medicinal_uses: str(),
  medicinal_uses_de: str(),
  medicinal_uses_en: str(),
  other_uses: str(),
  other_uses_de: str(),
  other_uses_en: str(),
  native_range: str(),
  native_range_de: str(),
  native_range_en: str(),
  invasiveness: str(),
  pollination_type: str({ maxLength: 100 }),
  // Ecology
  plant_layer: filtered(oneOf(PLANT_LAYERS), 'equals'),
  wildlife_value: str(),
  wildlife_value_de: str(),
  wildlife_value_en: str(),
  ground_cover_quality: str({ maxLength: 200 }),
  succession_stage: oneOf(SUCCESSION_STAGES),
  native_status: filtered(oneOf(NATIVE_STATUSES, { description: 'Status in Central Europe.' }), 'equals'),
  nitrogen_fixer: filtered(bool(), 'equals'),
  dynamic_accumulator: filtered(bool(), 'equals'),
  attracts_pollinators: bool(),
  attracts_beneficial_insects: bool(),
  mulch_plant: bool(),
  allelopathic: bool(),
  heavy_metal_tolerance: bool(),
  // Arrays of string
  soil_texture_preference: strList(),
  dynamic_accumulator_nutrients: strList(),
  guild_role: strList(),
  source_urls: strList({ urls: true }),
  // Counts and ratings
  nectar_value: filtered(rating('0 (none) to 4 (very high).'), 'minimum', { param: 'min_nectar' }),
  pollen_value: rating('0 (none) to 4 (very high).'),
  wild_bee_count: filtered(count(), 'minimum', { param: 'min_bees' }),
  wild_bee_specialist_count: count(),
  butterfly_moth_count: count(),
  caterpillar_host_count: count(),
  caterpillar_specialist_count: count(),
  hoverfly_count: count(),
  beetle_count: count(),
  bird_count: count(),
  mammal_count: count(),
  // Planner fields
  legal_status: objList(LegalStatusItem, {
    description:
      'Legal statuses in the jurisdictions covered (data/README.md names the lists). An empty list: checked ' +
      'against those lists and on none.',
  }),
  hazards: objList(HazardItem, {
    description: 'Known hazards. An empty list: a cited source states no notable hazard.',
  }),
  edible_parts: filtered(
    objList(EdiblePartItem, {
      description: 'Edible parts, each with a preparation caution where one applies.',
    }),
    'contains',
    { key: 'part', param: 'edible_part', description: 'Species with this edible part.' },
  ),
  life_cycle: filtered(oneOf(LIFE_CYCLES), 'equals'),
  woody: bool(),
  leaf_retention: oneOf(LEAF_RETENTIONS),
  height_m: num({ exclusiveMinimum: 0, maximum: 150, description: 'Typical mature maximum height, metres.' }),
  width_m: num({ exclusiveMinimum: 0, maximum: 150, description: 'Typical mature maximum width, metres.' }),
  light: filtered(oneOfList(LIGHT_LEVELS, { description: 'The light the species grows in.' }), 'contains', {
    description: 'Species that grow in this light.',
  }),
  flower_sex: oneOf(FLOWER_SEXES),
  self_fertile: bool(),
  flowering_months: intList({
    minimum: 1,
    maximum: 12,
    maxItems: 12,
    description: 'Month numbers 1–12, ascending.',
  }),
  nutrient_demand: oneOf(NUTRIENT_DEMANDS),
  // External references
  kb_qid: str({ maxLength: 100, description: 'Knowledge-base id (Wikidata Q-id).' }),
  biodiv_id: str({ maxLength: 100, description: 'Biodiversity database key (GBIF).' }),
  plantprot_code: str({ maxLength: 100, description: 'Plant-protection code (EPPO).' }),
  usesdb_url: str({ payload: httpUrl, description: 'Plant-uses database page.' }),
  extdb_tags: str({ maxLength: 2_000 }),
  // Image (set by the image endpoints, never by the payload)
  primary_image_key: str({ maxLength: 500, ...importOnly }),
};

/**
 * The fields the species list filters on (besides family and hardiness zone), in the order of their
 * query parameters and of the trailing key columns of the list indexes.
 */
export const SPECIES_LIST_FILTERS = [
  'plant_layer',
  'nitrogen_fixer',
  'dynamic_accumulator',
  'drought_tolerance',
  'native_status',
  'nectar_value',
  'wild_bee_count',
] as const;

/**
 * The planner fields' list filters: answered by the database alone (the in-memory list index
 * answers only the filters above).
 */
export const SPECIES_PLANNER_FILTERS = ['light', 'life_cycle', 'edible_parts'] as const;
