-- Search by names first (a names-only vector), word parts and typos by trigrams (pg_trgm, which
-- PGlite ships as an extension too), and other_names searched like names. plant_join makes a
-- name list usable in generated columns (array_to_string is only STABLE).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE FUNCTION plant_join(t text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN array_to_string(t, ' ');--> statement-breakpoint
DROP INDEX "species_order_idx";--> statement-breakpoint
DROP INDEX "species_family_order_idx";--> statement-breakpoint
ALTER TABLE "cultivars" drop column "search";--> statement-breakpoint
ALTER TABLE "cultivars" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(plant_join(other_names), ''))), 'A') || setweight(to_tsvector('simple', plant_fold(coalesce(description, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_en, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_de, ''))), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "species" drop column "search";--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name_scientific, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(plant_join(other_names), ''))), 'A') || setweight(to_tsvector('simple', plant_fold(coalesce(description, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_en, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_de, ''))), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "cultivars" ADD COLUMN "names" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(plant_join(other_names), ''))), 'A')) STORED;--> statement-breakpoint
ALTER TABLE "cultivars" ADD COLUMN "names_text" text GENERATED ALWAYS AS (plant_names(coalesce(name, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '') || ' ' || coalesce(plant_join(other_names), ''))) STORED;--> statement-breakpoint
ALTER TABLE "families" ADD COLUMN "names" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name_scientific, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A')) STORED;--> statement-breakpoint
ALTER TABLE "families" ADD COLUMN "names_text" text GENERATED ALWAYS AS (plant_names(coalesce(name_scientific, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, ''))) STORED;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "names" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name_scientific, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(plant_join(other_names), ''))), 'A')) STORED;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "names_text" text GENERATED ALWAYS AS (plant_names(coalesce(name_scientific, '') || ' ' || coalesce(name_en, '') || ' ' || coalesce(name_de, '') || ' ' || coalesce(plant_join(other_names), ''))) STORED;--> statement-breakpoint
CREATE INDEX "cultivars_names_idx" ON "cultivars" USING gin ("names");--> statement-breakpoint
CREATE INDEX "cultivars_names_trgm_idx" ON "cultivars" USING gin ("names_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "families_names_idx" ON "families" USING gin ("names");--> statement-breakpoint
CREATE INDEX "families_names_trgm_idx" ON "families" USING gin ("names_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "species_list_idx" ON "species" USING btree ("name_scientific","id","plant_layer","nitrogen_fixer","dynamic_accumulator","drought_tolerance","native_status","nectar_value","wild_bee_count");--> statement-breakpoint
CREATE INDEX "species_family_list_idx" ON "species" USING btree ("family_id","name_scientific","id","plant_layer","nitrogen_fixer","dynamic_accumulator","drought_tolerance","native_status","nectar_value","wild_bee_count");--> statement-breakpoint
CREATE INDEX "species_names_idx" ON "species" USING gin ("names");--> statement-breakpoint
CREATE INDEX "species_names_trgm_idx" ON "species" USING gin ("names_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cultivars_search_idx" ON "cultivars" USING gin ("search");--> statement-breakpoint
CREATE INDEX "species_search_idx" ON "species" USING gin ("search");
