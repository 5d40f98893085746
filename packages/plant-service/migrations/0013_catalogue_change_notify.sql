-- Records are no longer kept as JSON text beside their columns: responses are written from the
-- columns the table declares, so no trigger repeats the list of public columns.
DROP TRIGGER IF EXISTS families_json_text ON families;--> statement-breakpoint
DROP TRIGGER IF EXISTS species_json_text ON species;--> statement-breakpoint
DROP TRIGGER IF EXISTS cultivars_json_text ON cultivars;--> statement-breakpoint
DROP TRIGGER IF EXISTS suppliers_json_text ON suppliers;--> statement-breakpoint
DROP FUNCTION IF EXISTS families_json_text();--> statement-breakpoint
DROP FUNCTION IF EXISTS species_json_text();--> statement-breakpoint
DROP FUNCTION IF EXISTS cultivars_json_text();--> statement-breakpoint
DROP FUNCTION IF EXISTS suppliers_json_text();--> statement-breakpoint
ALTER TABLE "cultivars" DROP COLUMN "json_text";--> statement-breakpoint
ALTER TABLE "families" DROP COLUMN "json_text";--> statement-breakpoint
ALTER TABLE "species" DROP COLUMN "json_text";--> statement-breakpoint
ALTER TABLE "suppliers" DROP COLUMN "json_text";--> statement-breakpoint
-- Every committed change to a catalogue table is announced on the channel plant_data_changed
-- (the payload names the table), whoever makes it: this service, another instance, the command
-- line, psql. Each instance listens and empties its response cache. Statement-level: one
-- notification per statement, and PostgreSQL folds identical ones of a transaction into one,
-- delivered at commit (never for a rolled-back change).
CREATE FUNCTION plant_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('plant_data_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER families_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON families
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER species_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON species
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER cultivars_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cultivars
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER suppliers_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON suppliers
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER cultivar_suppliers_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cultivar_suppliers
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER companions_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companions
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();--> statement-breakpoint
CREATE TRIGGER images_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON images
  FOR EACH STATEMENT EXECUTE FUNCTION plant_notify_change();
