-- Species and cultivar rows keep their response text and search vector in the row itself,
-- compressed with lz4 where the server has it.
--
-- A species row is about 5 KB before compression (its JSON text 2.5 KB, its search vector, ~90
-- columns). Past the default threshold of 2 KB, PostgreSQL compressed the JSON text with pglz and
-- moved it to the TOAST table: every record a list page, a read by slug or a guild sent cost a
-- lookup in the TOAST index and a pglz decompression, 17-24 us per species and most of the
-- database's time for a 20-record page (425 us per page against 260 us kept in the row with lz4,
-- measured with pgbench on the benchmark's 50,000 species). With a 4 KB threshold the toaster
-- compresses the largest values until the row fits, so rows stay in their heap page, two to a
-- page (the table and its TOAST table took 176 MB together, the table alone 195 MB now).
-- lz4 decompresses several times faster than pglz; PGlite is built without it and keeps pglz
-- (it still gains the rows kept in their page).
ALTER TABLE species SET (toast_tuple_target = 4096);
--> statement-breakpoint
ALTER TABLE cultivars SET (toast_tuple_target = 4096);
--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE species ALTER COLUMN json_text SET COMPRESSION lz4;
  ALTER TABLE species ALTER COLUMN search SET COMPRESSION lz4;
  ALTER TABLE cultivars ALTER COLUMN json_text SET COMPRESSION lz4;
  ALTER TABLE cultivars ALTER COLUMN search SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  -- A server built without lz4 keeps pglz.
  NULL;
END $$;
--> statement-breakpoint
-- Rows written before keep their storage until rewritten: each is written again (its JSON text
-- trigger writes the same text anew, the generated search vector is computed again). The names
-- do not change, so their words are not rewritten row by row.
ALTER TABLE species DISABLE TRIGGER species_name_words_update;
--> statement-breakpoint
UPDATE species SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE species ENABLE TRIGGER species_name_words_update;
--> statement-breakpoint
ALTER TABLE cultivars DISABLE TRIGGER cultivars_name_words_update;
--> statement-breakpoint
UPDATE cultivars SET json_text = NULL;
--> statement-breakpoint
ALTER TABLE cultivars ENABLE TRIGGER cultivars_name_words_update;
