-- Existing `hardiness_zone_usda` values are brought to the documented form before the derived
-- columns read them: lower case; "USDA" and "zone(s)" dropped; en/em dashes and "to" read as a
-- range dash; spaces removed; a range given warm-to-cold turned round. A value that is still not
-- a zone or a range of zones 1-13 (e.g. "H4", "5/6", "frost hardy") is cleared to NULL: an
-- unreadable zone cannot be filtered on, and unknown is never treated as hardy.
WITH cleaned AS (
  SELECT id, regexp_replace(
    regexp_replace(regexp_replace(lower(hardiness_zone_usda), 'usda|zones?', '', 'g'), '\s*(–|—|\mto\M)\s*', '-', 'g'),
    '\s+', '', 'g') AS v
  FROM "species" WHERE hardiness_zone_usda IS NOT NULL
), parsed AS (
  SELECT id, v,
    -- Nested CASE: the casts run only once the pattern has matched.
    CASE WHEN v ~ '^(1[0-3]|[1-9])[ab]?-(1[0-3]|[1-9])[ab]?$' THEN
      CASE WHEN 2 * rtrim(split_part(v, '-', 1), 'ab')::int - CASE WHEN split_part(v, '-', 1) LIKE '%b' THEN 0 ELSE 1 END
        > 2 * rtrim(split_part(v, '-', 2), 'ab')::int - CASE WHEN split_part(v, '-', 2) LIKE '%a' THEN 1 ELSE 0 END
      THEN split_part(v, '-', 2) || '-' || split_part(v, '-', 1) ELSE v END
    ELSE v END AS ordered
  FROM cleaned
)
UPDATE "species" s
SET hardiness_zone_usda = CASE WHEN p.ordered ~ '^(1[0-3]|[1-9])[ab]?(-(1[0-3]|[1-9])[ab]?)?$' THEN p.ordered END
FROM parsed p
WHERE s.id = p.id
  AND s.hardiness_zone_usda IS DISTINCT FROM
    (CASE WHEN p.ordered ~ '^(1[0-3]|[1-9])[ab]?(-(1[0-3]|[1-9])[ab]?)?$' THEN p.ordered END);--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "hardiness_min" smallint GENERATED ALWAYS AS (case when hardiness_zone_usda ~ '^(1[0-3]|[1-9])[ab]?(-(1[0-3]|[1-9])[ab]?)?$' then (2 * rtrim(split_part(hardiness_zone_usda, '-', 1), 'ab')::int - case when split_part(hardiness_zone_usda, '-', 1) like '%b' then 0 else 1 end)::smallint end) STORED;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "hardiness_max" smallint GENERATED ALWAYS AS (case when hardiness_zone_usda ~ '^(1[0-3]|[1-9])[ab]?(-(1[0-3]|[1-9])[ab]?)?$' then (2 * rtrim(coalesce(nullif(split_part(hardiness_zone_usda, '-', 2), ''), hardiness_zone_usda), 'ab')::int - case when coalesce(nullif(split_part(hardiness_zone_usda, '-', 2), ''), hardiness_zone_usda) like '%a' then 1 else 0 end)::smallint end) STORED;--> statement-breakpoint
ALTER TABLE "species" ADD COLUMN "guild_score" smallint GENERATED ALWAYS AS (("nitrogen_fixer" is true)::int + ("dynamic_accumulator" is true)::int + ("attracts_pollinators" is true)::int + ("attracts_beneficial_insects" is true)::int + ("plant_layer" = 'ground_cover' or 'ground_cover' = any(coalesce("guild_role", '{}')))::int + ("mulch_plant" is true)::int) STORED;--> statement-breakpoint
CREATE INDEX "companions_a_idx" ON "companions" USING btree ("species_a_id");--> statement-breakpoint
CREATE INDEX "cultivars_indoor_sowing_months_idx" ON "cultivars" USING gin ("indoor_sowing_months");--> statement-breakpoint
CREATE INDEX "cultivars_indoor_sowing_weeks_idx" ON "cultivars" USING gin ("indoor_sowing_weeks");--> statement-breakpoint
CREATE INDEX "cultivars_direct_sowing_months_idx" ON "cultivars" USING gin ("direct_sowing_months");--> statement-breakpoint
CREATE INDEX "cultivars_direct_sowing_weeks_idx" ON "cultivars" USING gin ("direct_sowing_weeks");--> statement-breakpoint
CREATE INDEX "cultivars_transplanting_months_idx" ON "cultivars" USING gin ("transplanting_months");--> statement-breakpoint
CREATE INDEX "cultivars_transplanting_weeks_idx" ON "cultivars" USING gin ("transplanting_weeks");--> statement-breakpoint
CREATE INDEX "cultivars_glasshouse_months_idx" ON "cultivars" USING gin ("glasshouse_months");--> statement-breakpoint
CREATE INDEX "cultivars_glasshouse_weeks_idx" ON "cultivars" USING gin ("glasshouse_weeks");--> statement-breakpoint
CREATE INDEX "cultivars_harvesting_months_idx" ON "cultivars" USING gin ("harvesting_months");--> statement-breakpoint
CREATE INDEX "cultivars_harvesting_weeks_idx" ON "cultivars" USING gin ("harvesting_weeks");--> statement-breakpoint
CREATE INDEX "species_hardiness_idx" ON "species" USING btree ("hardiness_min","hardiness_max","plant_layer","native_status","drought_tolerance","nitrogen_fixer","family_id");--> statement-breakpoint
CREATE INDEX "species_guild_nitrogen_fixer_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("nitrogen_fixer" is true);--> statement-breakpoint
CREATE INDEX "species_guild_dynamic_accumulator_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("dynamic_accumulator" is true);--> statement-breakpoint
CREATE INDEX "species_guild_pollinator_attractor_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("attracts_pollinators" is true);--> statement-breakpoint
CREATE INDEX "species_guild_beneficial_insect_attractor_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("attracts_beneficial_insects" is true);--> statement-breakpoint
CREATE INDEX "species_guild_ground_cover_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("plant_layer" = 'ground_cover' or 'ground_cover' = any(coalesce("guild_role", '{}')));--> statement-breakpoint
CREATE INDEX "species_guild_mulch_plant_idx" ON "species" USING btree ("guild_score" DESC NULLS LAST,"name_scientific","id") WHERE ("mulch_plant" is true);--> statement-breakpoint
CREATE INDEX "species_guild_layer_idx" ON "species" USING btree ("plant_layer","guild_score" DESC NULLS LAST,"name_scientific","id") WHERE "species"."guild_score" > 0;