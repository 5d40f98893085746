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
CREATE INDEX "species_legal_status_idx" ON "species" USING gin (("legal_status"::jsonb) jsonb_path_ops);
