ALTER TABLE "cultivars" ADD COLUMN "other_names" text[];--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "other_names" text[];