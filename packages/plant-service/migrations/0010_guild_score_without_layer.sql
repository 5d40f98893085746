-- A species without a layer had an unknown ground-cover test ("plant_layer" = 'ground_cover' is
-- NULL), which made its whole guild score NULL, so it ranked after every scored species whatever
-- its functions. The test is now `is true`. Dropping the generated column drops every index on it,
-- so all the guild indexes are made again, not only the ground cover's.
DROP INDEX IF EXISTS "species_guild_nitrogen_fixer_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_dynamic_accumulator_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_pollinator_attractor_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_beneficial_insect_attractor_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_ground_cover_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_mulch_plant_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "species_guild_layer_idx";--> statement-breakpoint
ALTER TABLE "species" drop column "guild_score";--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "guild_score" smallint GENERATED ALWAYS AS (("nitrogen_fixer" is true)::int + ("dynamic_accumulator" is true)::int + ("attracts_pollinators" is true)::int + ("attracts_beneficial_insects" is true)::int + (("plant_layer" = 'ground_cover' or 'ground_cover' = any(coalesce("guild_role", '{}'))) is true)::int + ("mulch_plant" is true)::int) STORED;--> statement-breakpoint
CREATE INDEX "species_guild_nitrogen_fixer_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("nitrogen_fixer" is true);--> statement-breakpoint
CREATE INDEX "species_guild_dynamic_accumulator_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("dynamic_accumulator" is true);--> statement-breakpoint
CREATE INDEX "species_guild_pollinator_attractor_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("attracts_pollinators" is true);--> statement-breakpoint
CREATE INDEX "species_guild_beneficial_insect_attractor_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("attracts_beneficial_insects" is true);--> statement-breakpoint
CREATE INDEX "species_guild_ground_cover_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE (("plant_layer" = 'ground_cover' or 'ground_cover' = any(coalesce("guild_role", '{}'))) is true);--> statement-breakpoint
CREATE INDEX "species_guild_mulch_plant_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("mulch_plant" is true);--> statement-breakpoint
CREATE INDEX "species_guild_layer_idx" ON "species" USING btree ("plant_layer","guild_score" DESC NULLS LAST,"name_scientific","id") WHERE "species"."guild_score" > 0;
