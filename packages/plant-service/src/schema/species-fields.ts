/**
 * The species' fields, declared once. `writable: false` marks the fields the CreateSpecies payload
 * leaves out; they are filled by bulk import only.
 */

import { bool, count, filtered, httpUrl, int, name, num, oneOf, str, strList } from './fields.js';
import { ZONE_RANGE_PATTERN } from './hardiness.js';
import { NATIVE_STATUSES, PLANT_LAYERS, SUCCESSION_STAGES, TOLERANCE_LEVELS } from './vocabularies.js';

const importOnly = { writable: false } as const;
const ppm = (unit: 'number' | 'integer') =>
  unit === 'number' ? num({ minimum: 0, ...importOnly }) : count({ ...importOnly });
const rating = (description: string) => int({ minimum: 0, maximum: 4, small: true, description });

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
