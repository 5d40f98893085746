ALTER TABLE "species" ADD COLUMN "legal_status" json;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "hazards" json;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "edible_parts" json;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "life_cycle" text;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "woody" boolean;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "leaf_retention" text;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "height_m" double precision;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "width_m" double precision;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "light" text[];--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "flower_sex" text;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "self_fertile" boolean;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "flowering_months" smallint[];--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "nutrient_demand" text;--> statement-breakpoint
CREATE INDEX "species_light_idx" ON "species" USING gin ("light");--> statement-breakpoint
CREATE INDEX "species_edible_parts_idx" ON "species" USING gin (("edible_parts"::jsonb) jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "species_legal_status_idx" ON "species" USING gin (("legal_status"::jsonb) jsonb_path_ops);--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- The species' response text (migration 0011) with the planner fields: the trigger function lists
-- every public column by hand, in the declared order, so it is replaced with the new columns in
-- their place, and every row is written again so its kept text carries them (as null).
-- ---------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION species_json_text() RETURNS trigger LANGUAGE plpgsql AS $$
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
    NEW."legal_status" AS "legal_status", NEW."hazards" AS "hazards",
    NEW."edible_parts" AS "edible_parts", NEW."life_cycle" AS "life_cycle", NEW."woody" AS "woody",
    NEW."leaf_retention" AS "leaf_retention", NEW."height_m" AS "height_m",
    NEW."width_m" AS "width_m", NEW."light" AS "light", NEW."flower_sex" AS "flower_sex",
    NEW."self_fertile" AS "self_fertile", NEW."flowering_months" AS "flowering_months",
    NEW."nutrient_demand" AS "nutrient_demand", NEW."kb_qid" AS "kb_qid",
    NEW."biodiv_id" AS "biodiv_id", NEW."plantprot_code" AS "plantprot_code",
    NEW."usesdb_url" AS "usesdb_url", NEW."extdb_tags" AS "extdb_tags",
    NEW."primary_image_key" AS "primary_image_key",
    to_char(NEW."created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at",
    to_char(NEW."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updated_at"
  ) r)::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- The names do not change: their words stay as they are, not rewritten row by row.
ALTER TABLE species DISABLE TRIGGER species_name_words_update;
--> statement-breakpoint
UPDATE species SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE species ENABLE TRIGGER species_name_words_update;
