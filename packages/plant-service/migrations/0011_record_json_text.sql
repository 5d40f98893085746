-- Every catalogue record keeps its response text: its public columns written as JSON, in the
-- declared order, timestamps as JSON.stringify writes a Date. A BEFORE row trigger writes it on
-- every insert and update, whoever writes (the service, an import, an operator's SQL), so it can
-- never lag its row; list pages read it instead of building 90 columns of JSON per row. The
-- column lists are those of the schema declaration; the record JSON tests compare every stored
-- text with the one the declaration gives, so a column added without its trigger fails them.
ALTER TABLE "cultivars" ADD COLUMN "json_text" text;--> statement-breakpoint
ALTER TABLE "families" ADD COLUMN "json_text" text;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "json_text" text;--> statement-breakpoint
ALTER TABLE "suppliers" ADD COLUMN "json_text" text;--> statement-breakpoint
CREATE FUNCTION families_json_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.json_text := (SELECT row_to_json(r) FROM (SELECT
    NEW."id" AS "id", NEW."slug" AS "slug", NEW."name_scientific" AS "name_scientific",
    NEW."name_en" AS "name_en", NEW."name_de" AS "name_de", NEW."description" AS "description",
    to_char(NEW."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
    to_char(NEW."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updated_at"
  ) r)::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER families_json_text BEFORE INSERT OR UPDATE ON families
  FOR EACH ROW EXECUTE FUNCTION families_json_text();
--> statement-breakpoint
-- The names do not change: their words stay as they are, not rewritten row by row.
ALTER TABLE families DISABLE TRIGGER families_name_words_update;
--> statement-breakpoint
UPDATE families SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE families ENABLE TRIGGER families_name_words_update;
--> statement-breakpoint
CREATE FUNCTION species_json_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.json_text := (SELECT row_to_json(r) FROM (SELECT
    NEW."id" AS "id", NEW."slug" AS "slug", NEW."family_id" AS "family_id",
    NEW."name_scientific" AS "name_scientific", NEW."name_en" AS "name_en",
    NEW."name_de" AS "name_de", NEW."other_names" AS "other_names",
    NEW."description" AS "description", NEW."description_de" AS "description_de",
    NEW."description_en" AS "description_en", NEW."soil_moisture" AS "soil_moisture",
    NEW."drainage_requirement" AS "drainage_requirement",
    NEW."organic_matter_pct" AS "organic_matter_pct", NEW."boron_ppm" AS "boron_ppm",
    NEW."copper_ppm" AS "copper_ppm", NEW."iron_ppm" AS "iron_ppm",
    NEW."manganese_ppm" AS "manganese_ppm", NEW."molybdenum_ppm" AS "molybdenum_ppm",
    NEW."zinc_ppm" AS "zinc_ppm", NEW."ph_min" AS "ph_min", NEW."ph_max" AS "ph_max",
    NEW."nitrogen_ppm" AS "nitrogen_ppm", NEW."phosphorus_ppm" AS "phosphorus_ppm",
    NEW."potassium_ppm" AS "potassium_ppm", NEW."calcium_ppm" AS "calcium_ppm",
    NEW."magnesium_ppm" AS "magnesium_ppm", NEW."sulfur_ppm" AS "sulfur_ppm",
    NEW."hardiness_zone_usda" AS "hardiness_zone_usda",
    NEW."hardiness_zone_at" AS "hardiness_zone_at", NEW."drought_tolerance" AS "drought_tolerance",
    NEW."salt_tolerance" AS "salt_tolerance", NEW."min_temp" AS "min_temp",
    NEW."max_temp" AS "max_temp", NEW."water_requirement_mm_week" AS "water_requirement_mm_week",
    NEW."waterlogging_tolerance" AS "waterlogging_tolerance",
    NEW."edibility_rating" AS "edibility_rating", NEW."food_uses" AS "food_uses",
    NEW."food_uses_de" AS "food_uses_de", NEW."food_uses_en" AS "food_uses_en",
    NEW."medicinal_uses" AS "medicinal_uses", NEW."medicinal_uses_de" AS "medicinal_uses_de",
    NEW."medicinal_uses_en" AS "medicinal_uses_en", NEW."other_uses" AS "other_uses",
    NEW."other_uses_de" AS "other_uses_de", NEW."other_uses_en" AS "other_uses_en",
    NEW."native_range" AS "native_range", NEW."native_range_de" AS "native_range_de",
    NEW."native_range_en" AS "native_range_en", NEW."invasiveness" AS "invasiveness",
    NEW."pollination_type" AS "pollination_type", NEW."plant_layer" AS "plant_layer",
    NEW."wildlife_value" AS "wildlife_value", NEW."wildlife_value_de" AS "wildlife_value_de",
    NEW."wildlife_value_en" AS "wildlife_value_en",
    NEW."ground_cover_quality" AS "ground_cover_quality",
    NEW."succession_stage" AS "succession_stage", NEW."native_status" AS "native_status",
    NEW."nitrogen_fixer" AS "nitrogen_fixer", NEW."dynamic_accumulator" AS "dynamic_accumulator",
    NEW."attracts_pollinators" AS "attracts_pollinators",
    NEW."attracts_beneficial_insects" AS "attracts_beneficial_insects",
    NEW."mulch_plant" AS "mulch_plant", NEW."allelopathic" AS "allelopathic",
    NEW."heavy_metal_tolerance" AS "heavy_metal_tolerance",
    NEW."soil_texture_preference" AS "soil_texture_preference",
    NEW."dynamic_accumulator_nutrients" AS "dynamic_accumulator_nutrients",
    NEW."guild_role" AS "guild_role", NEW."source_urls" AS "source_urls",
    NEW."nectar_value" AS "nectar_value", NEW."pollen_value" AS "pollen_value",
    NEW."wild_bee_count" AS "wild_bee_count",
    NEW."wild_bee_specialist_count" AS "wild_bee_specialist_count",
    NEW."butterfly_moth_count" AS "butterfly_moth_count",
    NEW."caterpillar_host_count" AS "caterpillar_host_count",
    NEW."caterpillar_specialist_count" AS "caterpillar_specialist_count",
    NEW."hoverfly_count" AS "hoverfly_count", NEW."beetle_count" AS "beetle_count",
    NEW."bird_count" AS "bird_count", NEW."mammal_count" AS "mammal_count",
    NEW."kb_qid" AS "kb_qid", NEW."biodiv_id" AS "biodiv_id",
    NEW."plantprot_code" AS "plantprot_code", NEW."usesdb_url" AS "usesdb_url",
    NEW."extdb_tags" AS "extdb_tags", NEW."primary_image_key" AS "primary_image_key",
    to_char(NEW."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
    to_char(NEW."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updated_at"
  ) r)::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER species_json_text BEFORE INSERT OR UPDATE ON species
  FOR EACH ROW EXECUTE FUNCTION species_json_text();
--> statement-breakpoint
-- The names do not change: their words stay as they are, not rewritten row by row.
ALTER TABLE species DISABLE TRIGGER species_name_words_update;
--> statement-breakpoint
UPDATE species SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE species ENABLE TRIGGER species_name_words_update;
--> statement-breakpoint
CREATE FUNCTION cultivars_json_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.json_text := (SELECT row_to_json(r) FROM (SELECT
    NEW."id" AS "id", NEW."slug" AS "slug", NEW."species_id" AS "species_id", NEW."name" AS "name",
    NEW."is_organic" AS "is_organic", NEW."perennial" AS "perennial", NEW."name_en" AS "name_en",
    NEW."name_de" AS "name_de", NEW."name_scientific" AS "name_scientific",
    NEW."other_names" AS "other_names", NEW."description" AS "description",
    NEW."description_de" AS "description_de", NEW."description_en" AS "description_en",
    NEW."growing_time_days" AS "growing_time_days",
    NEW."days_to_germination" AS "days_to_germination",
    NEW."stratification_days" AS "stratification_days",
    NEW."seed_viability_years" AS "seed_viability_years",
    NEW."indoor_season_extension_weeks" AS "indoor_season_extension_weeks",
    NEW."succession_planting_days" AS "succession_planting_days",
    NEW."years_to_first_harvest" AS "years_to_first_harvest",
    NEW."productive_lifespan_years" AS "productive_lifespan_years",
    NEW."harvest_window_days" AS "harvest_window_days", NEW."shelf_life_days" AS "shelf_life_days",
    NEW."cold_storage_days" AS "cold_storage_days", NEW."planting_depth_cm" AS "planting_depth_cm",
    NEW."row_spacing_cm" AS "row_spacing_cm", NEW."plant_spacing_cm" AS "plant_spacing_cm",
    NEW."germination_temp_c" AS "germination_temp_c", NEW."storage_temp_c" AS "storage_temp_c",
    NEW."min_temp" AS "min_temp", NEW."max_temp" AS "max_temp",
    NEW."min_light_hours_day" AS "min_light_hours_day",
    NEW."optimal_light_hours_day" AS "optimal_light_hours_day",
    NEW."greenhouse_min_temp_c" AS "greenhouse_min_temp_c",
    NEW."expected_yield_kg_per_m2" AS "expected_yield_kg_per_m2",
    NEW."expected_yield_value" AS "expected_yield_value",
    NEW."light_requirement" AS "light_requirement", NEW."storage_humidity" AS "storage_humidity",
    NEW."storage_notes" AS "storage_notes", NEW."humidity" AS "humidity", NEW."light" AS "light",
    NEW."frost_tolerance" AS "frost_tolerance",
    NEW."ventilation_requirement" AS "ventilation_requirement",
    NEW."planting_notes" AS "planting_notes", NEW."cutting_season" AS "cutting_season",
    NEW."yield_unit" AS "yield_unit", NEW."pollination_group" AS "pollination_group",
    NEW."rootstock_compatibility" AS "rootstock_compatibility", NEW."kb_qid" AS "kb_qid",
    NEW."biodiv_id" AS "biodiv_id", NEW."usesdb_url" AS "usesdb_url",
    NEW."primary_image_key" AS "primary_image_key",
    NEW."stratification_required" AS "stratification_required",
    NEW."scarification_required" AS "scarification_required",
    NEW."heating_required" AS "heating_required", NEW."self_fertile" AS "self_fertile",
    NEW."rootstock_species_id" AS "rootstock_species_id",
    NEW."indoor_sowing_months" AS "indoor_sowing_months",
    NEW."direct_sowing_months" AS "direct_sowing_months",
    NEW."transplanting_months" AS "transplanting_months",
    NEW."glasshouse_months" AS "glasshouse_months", NEW."harvesting_months" AS "harvesting_months",
    NEW."indoor_sowing_weeks" AS "indoor_sowing_weeks",
    NEW."direct_sowing_weeks" AS "direct_sowing_weeks",
    NEW."transplanting_weeks" AS "transplanting_weeks",
    NEW."glasshouse_weeks" AS "glasshouse_weeks", NEW."harvesting_weeks" AS "harvesting_weeks",
    NEW."propagation_methods" AS "propagation_methods", NEW."storage_method" AS "storage_method",
    NEW."source_urls" AS "source_urls",
    to_char(NEW."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
    to_char(NEW."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updated_at"
  ) r)::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER cultivars_json_text BEFORE INSERT OR UPDATE ON cultivars
  FOR EACH ROW EXECUTE FUNCTION cultivars_json_text();
--> statement-breakpoint
-- The names do not change: their words stay as they are, not rewritten row by row.
ALTER TABLE cultivars DISABLE TRIGGER cultivars_name_words_update;
--> statement-breakpoint
UPDATE cultivars SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE cultivars ENABLE TRIGGER cultivars_name_words_update;
--> statement-breakpoint
CREATE FUNCTION suppliers_json_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.json_text := (SELECT row_to_json(r) FROM (SELECT
    NEW."id" AS "id", NEW."slug" AS "slug", NEW."name" AS "name", NEW."url" AS "url",
    NEW."country" AS "country", NEW."notes" AS "notes", NEW."is_organic" AS "is_organic",
    NEW."is_biodynamic" AS "is_biodynamic",
    to_char(NEW."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
    to_char(NEW."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updated_at"
  ) r)::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER suppliers_json_text BEFORE INSERT OR UPDATE ON suppliers
  FOR EACH ROW EXECUTE FUNCTION suppliers_json_text();
--> statement-breakpoint
UPDATE suppliers SET json_text = NULL;
