/**
 * The cultivars' fields, declared once. `writable: false` marks the fields the CreateCultivar
 * payload leaves out; they are filled by bulk import only.
 */

import { uuid } from 'drizzle-orm/pg-core';
import { bool, count, flag, httpUrl, int, intList, name, num, str, strList } from './fields.js';
import { Uuid } from './types.js';

const importOnly = { writable: false } as const;
const months = () => intList({ minimum: 1, maximum: 12, description: 'Month numbers 1–12.' });
const weeks = () => intList({ minimum: 1, maximum: 52, description: 'ISO week numbers 1–52.' });
const days = (writable = false) => (writable ? count() : count(importOnly));

export const cultivarFields = {
  name: name({ search: 'A' }),
  is_organic: flag(),
  perennial: flag(),
  name_en: str({ maxLength: 300, search: 'A' }),
  name_de: str({ maxLength: 300, search: 'A' }),
  name_scientific: str({ maxLength: 300 }),
  other_names: strList({
    description: 'Synonyms and further common names in any language (searchable, weighted like names).',
    search: 'A',
  }),
  description: str({ search: 'C' }),
  description_de: str({ search: 'C' }),
  description_en: str({ search: 'C' }),
  // Integers
  growing_time_days: count(),
  days_to_germination: count(),
  stratification_days: days(),
  seed_viability_years: days(),
  indoor_season_extension_weeks: int({ minimum: 0, maximum: 52, ...importOnly }),
  succession_planting_days: days(),
  years_to_first_harvest: days(),
  productive_lifespan_years: days(),
  harvest_window_days: days(),
  shelf_life_days: days(),
  cold_storage_days: days(),
  // Numbers
  planting_depth_cm: num({ minimum: 0 }),
  row_spacing_cm: num({ minimum: 0 }),
  plant_spacing_cm: num({ minimum: 0 }),
  germination_temp_c: num({ minimum: -20, maximum: 60 }),
  storage_temp_c: num({ minimum: -40, maximum: 60, ...importOnly }),
  min_temp: num({ minimum: -90, maximum: 60, ...importOnly }),
  max_temp: num({ minimum: -90, maximum: 60, ...importOnly }),
  min_light_hours_day: num({ minimum: 0, maximum: 24, ...importOnly }),
  optimal_light_hours_day: num({ minimum: 0, maximum: 24, ...importOnly }),
  greenhouse_min_temp_c: num({ minimum: -40, maximum: 60, ...importOnly }),
  expected_yield_kg_per_m2: num({ minimum: 0, ...importOnly }),
  expected_yield_value: num({ minimum: 0, ...importOnly }),
  // Strings
  light_requirement: str({ maxLength: 100 }),
  storage_humidity: str({ maxLength: 100, ...importOnly }),
  storage_notes: str(importOnly),
  humidity: str({ maxLength: 100, ...importOnly }),
  light: str({ maxLength: 100, ...importOnly }),
  frost_tolerance: str({ maxLength: 100, ...importOnly }),
  ventilation_requirement: str({ maxLength: 200, ...importOnly }),
  planting_notes: str(importOnly),
  cutting_season: str({ maxLength: 200, ...importOnly }),
  yield_unit: str({ maxLength: 50, ...importOnly }),
  pollination_group: str({ maxLength: 50, ...importOnly }),
  rootstock_compatibility: str(importOnly),
  kb_qid: str({ maxLength: 100, ...importOnly }),
  biodiv_id: str({ maxLength: 100, ...importOnly }),
  usesdb_url: str({ payload: httpUrl, ...importOnly }),
  primary_image_key: str({ maxLength: 500, ...importOnly }),
  // Booleans
  stratification_required: bool(importOnly),
  scarification_required: bool(importOnly),
  heating_required: bool(importOnly),
  self_fertile: bool(importOnly),
  // Reference to the rootstock's species
  rootstock_species_id: {
    schema: Uuid,
    column: () => uuid(),
    writable: false as const,
  },
  // Calendars
  indoor_sowing_months: months(),
  direct_sowing_months: months(),
  transplanting_months: months(),
  glasshouse_months: months(),
  harvesting_months: months(),
  indoor_sowing_weeks: weeks(),
  direct_sowing_weeks: weeks(),
  transplanting_weeks: weeks(),
  glasshouse_weeks: weeks(),
  harvesting_weeks: weeks(),
  // Arrays of string
  propagation_methods: strList(importOnly),
  storage_method: strList(importOnly),
  source_urls: strList({ urls: true }),
};
