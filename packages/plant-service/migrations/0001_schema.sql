CREATE TABLE "companions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"species_a_id" uuid NOT NULL,
	"species_b_id" uuid NOT NULL,
	"relationship" text NOT NULL,
	"mechanism" text,
	"source_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companions_distinct_species" CHECK ("companions"."species_a_id" <> "companions"."species_b_id")
);
--> statement-breakpoint
CREATE TABLE "cultivar_suppliers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cultivar_id" uuid NOT NULL,
	"supplier_id" uuid NOT NULL,
	"article_number" text,
	"product_url" text,
	"price_eur" numeric(12, 2),
	"pack_size" double precision,
	"pack_unit" text,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cultivars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"species_id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_organic" boolean DEFAULT false NOT NULL,
	"perennial" boolean DEFAULT false NOT NULL,
	"name_en" text,
	"name_de" text,
	"name_scientific" text,
	"description" text,
	"description_de" text,
	"description_en" text,
	"growing_time_days" integer,
	"days_to_germination" integer,
	"stratification_days" integer,
	"seed_viability_years" integer,
	"indoor_season_extension_weeks" integer,
	"succession_planting_days" integer,
	"years_to_first_harvest" integer,
	"productive_lifespan_years" integer,
	"harvest_window_days" integer,
	"shelf_life_days" integer,
	"cold_storage_days" integer,
	"planting_depth_cm" double precision,
	"row_spacing_cm" double precision,
	"plant_spacing_cm" double precision,
	"germination_temp_c" double precision,
	"storage_temp_c" double precision,
	"min_temp" double precision,
	"max_temp" double precision,
	"min_light_hours_day" double precision,
	"optimal_light_hours_day" double precision,
	"greenhouse_min_temp_c" double precision,
	"expected_yield_kg_per_m2" double precision,
	"expected_yield_value" double precision,
	"light_requirement" text,
	"storage_humidity" text,
	"storage_notes" text,
	"humidity" text,
	"light" text,
	"frost_tolerance" text,
	"ventilation_requirement" text,
	"planting_notes" text,
	"cutting_season" text,
	"yield_unit" text,
	"pollination_group" text,
	"rootstock_compatibility" text,
	"kb_qid" text,
	"biodiv_id" text,
	"usesdb_url" text,
	"primary_image_key" text,
	"stratification_required" boolean,
	"scarification_required" boolean,
	"heating_required" boolean,
	"self_fertile" boolean,
	"rootstock_species_id" uuid,
	"indoor_sowing_months" smallint[],
	"direct_sowing_months" smallint[],
	"transplanting_months" smallint[],
	"glasshouse_months" smallint[],
	"harvesting_months" smallint[],
	"indoor_sowing_weeks" smallint[],
	"direct_sowing_weeks" smallint[],
	"transplanting_weeks" smallint[],
	"glasshouse_weeks" smallint[],
	"harvesting_weeks" smallint[],
	"propagation_methods" text[],
	"storage_method" text[],
	"source_urls" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_fold(coalesce(description, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_en, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_de, ''))), 'C')) STORED,
	CONSTRAINT "cultivars_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "families" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name_scientific" text NOT NULL,
	"name_en" text,
	"name_de" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name_scientific, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_fold(coalesce(description, ''))), 'C')) STORED,
	CONSTRAINT "families_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "species" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"family_id" uuid NOT NULL,
	"name_scientific" text NOT NULL,
	"name_en" text,
	"name_de" text,
	"description" text,
	"description_de" text,
	"description_en" text,
	"soil_moisture" text,
	"drainage_requirement" text,
	"organic_matter_pct" double precision,
	"boron_ppm" double precision,
	"copper_ppm" double precision,
	"iron_ppm" double precision,
	"manganese_ppm" double precision,
	"molybdenum_ppm" double precision,
	"zinc_ppm" double precision,
	"ph_min" double precision,
	"ph_max" double precision,
	"nitrogen_ppm" integer,
	"phosphorus_ppm" integer,
	"potassium_ppm" integer,
	"calcium_ppm" integer,
	"magnesium_ppm" integer,
	"sulfur_ppm" integer,
	"hardiness_zone_usda" text,
	"hardiness_zone_at" text,
	"drought_tolerance" text,
	"salt_tolerance" text,
	"min_temp" double precision,
	"max_temp" double precision,
	"water_requirement_mm_week" double precision,
	"waterlogging_tolerance" boolean,
	"edibility_rating" smallint,
	"food_uses" text,
	"food_uses_de" text,
	"food_uses_en" text,
	"medicinal_uses" text,
	"medicinal_uses_de" text,
	"medicinal_uses_en" text,
	"other_uses" text,
	"other_uses_de" text,
	"other_uses_en" text,
	"native_range" text,
	"native_range_de" text,
	"native_range_en" text,
	"invasiveness" text,
	"pollination_type" text,
	"plant_layer" text,
	"wildlife_value" text,
	"wildlife_value_de" text,
	"wildlife_value_en" text,
	"ground_cover_quality" text,
	"succession_stage" text,
	"native_status" text,
	"nitrogen_fixer" boolean,
	"dynamic_accumulator" boolean,
	"attracts_pollinators" boolean,
	"attracts_beneficial_insects" boolean,
	"mulch_plant" boolean,
	"allelopathic" boolean,
	"heavy_metal_tolerance" boolean,
	"soil_texture_preference" text[],
	"dynamic_accumulator_nutrients" text[],
	"guild_role" text[],
	"source_urls" text[],
	"nectar_value" smallint,
	"pollen_value" smallint,
	"wild_bee_count" integer,
	"wild_bee_specialist_count" integer,
	"butterfly_moth_count" integer,
	"caterpillar_host_count" integer,
	"caterpillar_specialist_count" integer,
	"hoverfly_count" integer,
	"beetle_count" integer,
	"bird_count" integer,
	"mammal_count" integer,
	"kb_qid" text,
	"biodiv_id" text,
	"plantprot_code" text,
	"usesdb_url" text,
	"extdb_tags" text,
	"primary_image_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', plant_names(coalesce(name_scientific, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_en, ''))), 'A') || setweight(to_tsvector('simple', plant_names(coalesce(name_de, ''))), 'A') || setweight(to_tsvector('simple', plant_fold(coalesce(description, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_en, ''))), 'C') || setweight(to_tsvector('simple', plant_fold(coalesce(description_de, ''))), 'C')) STORED,
	CONSTRAINT "species_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "suppliers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"is_organic" boolean DEFAULT false NOT NULL,
	"is_biodynamic" boolean DEFAULT false NOT NULL,
	"country" text,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppliers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"nickname" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_editor" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "companions" ADD CONSTRAINT "companions_species_a_id_species_id_fk" FOREIGN KEY ("species_a_id") REFERENCES "public"."species"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companions" ADD CONSTRAINT "companions_species_b_id_species_id_fk" FOREIGN KEY ("species_b_id") REFERENCES "public"."species"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cultivar_suppliers" ADD CONSTRAINT "cultivar_suppliers_cultivar_id_cultivars_id_fk" FOREIGN KEY ("cultivar_id") REFERENCES "public"."cultivars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cultivar_suppliers" ADD CONSTRAINT "cultivar_suppliers_supplier_id_suppliers_id_fk" FOREIGN KEY ("supplier_id") REFERENCES "public"."suppliers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cultivars" ADD CONSTRAINT "cultivars_species_id_species_id_fk" FOREIGN KEY ("species_id") REFERENCES "public"."species"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "species" ADD CONSTRAINT "species_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companions_pair_idx" ON "companions" USING btree (least("species_a_id", "species_b_id"),greatest("species_a_id", "species_b_id"));--> statement-breakpoint
CREATE INDEX "companions_b_idx" ON "companions" USING btree ("species_b_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cultivar_suppliers_pair_idx" ON "cultivar_suppliers" USING btree ("cultivar_id","supplier_id");--> statement-breakpoint
CREATE INDEX "cultivar_suppliers_supplier_idx" ON "cultivar_suppliers" USING btree ("supplier_id");--> statement-breakpoint
CREATE INDEX "cultivars_order_idx" ON "cultivars" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "cultivars_species_order_idx" ON "cultivars" USING btree ("species_id","name","id");--> statement-breakpoint
CREATE INDEX "cultivars_search_idx" ON "cultivars" USING gin ("search");--> statement-breakpoint
CREATE INDEX "families_order_idx" ON "families" USING btree ("name_scientific","id");--> statement-breakpoint
CREATE INDEX "families_search_idx" ON "families" USING gin ("search");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expiry_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "species_order_idx" ON "species" USING btree ("name_scientific","id");--> statement-breakpoint
CREATE INDEX "species_family_order_idx" ON "species" USING btree ("family_id","name_scientific","id");--> statement-breakpoint
CREATE INDEX "species_search_idx" ON "species" USING gin ("search");--> statement-breakpoint
CREATE INDEX "suppliers_order_idx" ON "suppliers" USING btree ("name","id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_identity_idx" ON "users" USING btree ("issuer","subject");