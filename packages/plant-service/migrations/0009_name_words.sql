CREATE TABLE "name_words" (
	"word" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"name" text NOT NULL,
	"names" "tsvector" NOT NULL,
	CONSTRAINT "name_words_entity_type_entity_id_word_pk" PRIMARY KEY("entity_type","entity_id","word")
);
--> statement-breakpoint
-- INCLUDE (which the schema declaration cannot state) makes the prefix scan index-only.
CREATE INDEX "name_words_word_idx" ON "name_words" USING btree ("word" text_pattern_ops) INCLUDE ("entity_type", "entity_id", "name", "names");--> statement-breakpoint
-- The longest word of a search text as the text search parser splits it: the word the search's
-- prefix group reads name_words by. IMMUTABLE, so the planner evaluates it for a given text and
-- sees the range it bounds.
CREATE FUNCTION plant_longest_word(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', t))) w ORDER BY length(w) DESC, w LIMIT 1);
--> statement-breakpoint
-- name_words holds the words of every record's names vector and is derived only: statement
-- triggers with transition tables keep it equal after every insert, update, delete (cascades
-- included) and truncate, so bulk imports write it in one statement per table, not per row.
-- TG_ARGV: the entity type, then the record's sort-name column.
CREATE FUNCTION name_words_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM name_words WHERE entity_type = TG_ARGV[0];
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    EXECUTE format('DELETE FROM name_words w USING old_rows o WHERE w.entity_type = %L AND w.entity_id = o.id',
      TG_ARGV[0]);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    EXECUTE format('INSERT INTO name_words (word, entity_type, entity_id, name, names)
      SELECT w, %L, n.id, n.%I, n.names FROM new_rows n, unnest(tsvector_to_array(n.names)) w',
      TG_ARGV[0], TG_ARGV[1]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER families_name_words_insert AFTER INSERT ON families REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('family', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER families_name_words_update AFTER UPDATE ON families REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('family', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER families_name_words_delete AFTER DELETE ON families REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('family', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER families_name_words_truncate AFTER TRUNCATE ON families
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('family', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER species_name_words_insert AFTER INSERT ON species REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('species', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER species_name_words_update AFTER UPDATE ON species REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('species', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER species_name_words_delete AFTER DELETE ON species REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('species', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER species_name_words_truncate AFTER TRUNCATE ON species
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('species', 'name_scientific');
--> statement-breakpoint
CREATE TRIGGER cultivars_name_words_insert AFTER INSERT ON cultivars REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('cultivar', 'name');
--> statement-breakpoint
CREATE TRIGGER cultivars_name_words_update AFTER UPDATE ON cultivars REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('cultivar', 'name');
--> statement-breakpoint
CREATE TRIGGER cultivars_name_words_delete AFTER DELETE ON cultivars REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('cultivar', 'name');
--> statement-breakpoint
CREATE TRIGGER cultivars_name_words_truncate AFTER TRUNCATE ON cultivars
  FOR EACH STATEMENT EXECUTE FUNCTION name_words_sync('cultivar', 'name');
--> statement-breakpoint
INSERT INTO name_words (word, entity_type, entity_id, name, names)
  SELECT w, 'family', f.id, f.name_scientific, f.names FROM families f, unnest(tsvector_to_array(f.names)) w;
--> statement-breakpoint
INSERT INTO name_words (word, entity_type, entity_id, name, names)
  SELECT w, 'species', s.id, s.name_scientific, s.names FROM species s, unnest(tsvector_to_array(s.names)) w;
--> statement-breakpoint
INSERT INTO name_words (word, entity_type, entity_id, name, names)
  SELECT w, 'cultivar', c.id, c.name, c.names FROM cultivars c, unnest(tsvector_to_array(c.names)) w;
