CREATE TABLE "change_counter" (
	"only_row" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"last_position" bigint DEFAULT 0 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "change_counter_one_row" CHECK ("change_counter"."only_row")
);
--> statement-breakpoint
CREATE TABLE "change_ignored_columns" (
	"column_name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"position" bigint,
	"txid" bigint DEFAULT (pg_current_xact_id()::text::bigint) NOT NULL,
	"committed_at" timestamp with time zone,
	"kind" text NOT NULL,
	"record_id" uuid NOT NULL,
	"slug" text,
	"op" text NOT NULL,
	"fields" jsonb NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_user_id" uuid,
	"actor_token_id" uuid,
	"actor_role" text NOT NULL,
	"reason" text,
	"reverts" bigint,
	CONSTRAINT "changes_op" CHECK ("changes"."op" in ('create', 'update', 'delete')),
	CONSTRAINT "changes_actor_kind" CHECK ("changes"."actor_kind" in ('user', 'token', 'import', 'database'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "changes_position_idx" ON "changes" USING btree ("position");--> statement-breakpoint
CREATE INDEX "changes_record_idx" ON "changes" USING btree ("record_id","position");--> statement-breakpoint
CREATE INDEX "changes_pending_idx" ON "changes" USING btree ("txid") WHERE "changes"."position" is null;--> statement-breakpoint
CREATE INDEX "changes_committed_idx" ON "changes" USING btree ("committed_at");--> statement-breakpoint
INSERT INTO change_counter (only_row) VALUES (true);
--> statement-breakpoint
-- Bookkeeping and derived text: a response's kept JSON, the time of the last update (an update
-- that changed only it changed nothing a reader sees). Generated columns are left out by the
-- trigger itself, so a column added later is recorded, or not, without editing the function.
INSERT INTO change_ignored_columns (column_name) VALUES ('json_text'), ('updated_at');
--> statement-breakpoint
-- One entry per written row, in the writer's transaction. The fields are found by comparing the
-- row's JSON before and after key by key, so columns added later are recorded without edits here.
-- A create lists its non-null fields, a delete every non-null field it had (what a restore
-- needs), an update what changed; an update that changed nothing is not recorded. The actor and
-- reason come from transaction-local settings the service sets (plants.actor_kind, _user,
-- _token, plants.change_reason, plants.reverts); without them the writer is the database role.
CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ignored text[];
  before jsonb;
  after jsonb;
  changed jsonb;
  row_json jsonb;
BEGIN
  ignored := ARRAY(
    SELECT column_name FROM change_ignored_columns
    UNION ALL
    SELECT attname::text FROM pg_attribute WHERE attrelid = TG_RELID AND attgenerated <> ''
  );
  IF TG_OP <> 'INSERT' THEN before := to_jsonb(OLD) - ignored; END IF;
  IF TG_OP <> 'DELETE' THEN after := to_jsonb(NEW) - ignored; END IF;
  SELECT coalesce(jsonb_object_agg(key, jsonb_build_object('old', o.value, 'new', n.value)), '{}'::jsonb)
    INTO changed
    FROM jsonb_each(coalesce(before, '{}'::jsonb)) o
    FULL JOIN jsonb_each(coalesce(after, '{}'::jsonb)) n USING (key)
    WHERE coalesce(o.value, 'null'::jsonb) IS DISTINCT FROM coalesce(n.value, 'null'::jsonb);
  IF TG_OP = 'UPDATE' AND changed = '{}'::jsonb THEN RETURN NULL; END IF;
  row_json := coalesce(after, before);
  INSERT INTO changes (kind, record_id, slug, op, fields, actor_kind, actor_user_id, actor_token_id,
                       actor_role, reason, reverts)
  VALUES (
    TG_ARGV[0],
    (row_json->>'id')::uuid,
    row_json->>'slug',
    CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END,
    changed,
    coalesce(nullif(current_setting('plants.actor_kind', true), ''), 'database'),
    nullif(current_setting('plants.actor_user', true), '')::uuid,
    nullif(current_setting('plants.actor_token', true), '')::uuid,
    current_user,
    nullif(current_setting('plants.change_reason', true), ''),
    nullif(current_setting('plants.reverts', true), '')::bigint
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER families_record_change AFTER INSERT OR UPDATE OR DELETE ON families
  FOR EACH ROW EXECUTE FUNCTION record_change('family');
--> statement-breakpoint
CREATE TRIGGER species_record_change AFTER INSERT OR UPDATE OR DELETE ON species
  FOR EACH ROW EXECUTE FUNCTION record_change('species');
--> statement-breakpoint
CREATE TRIGGER cultivars_record_change AFTER INSERT OR UPDATE OR DELETE ON cultivars
  FOR EACH ROW EXECUTE FUNCTION record_change('cultivar');
--> statement-breakpoint
CREATE TRIGGER suppliers_record_change AFTER INSERT OR UPDATE OR DELETE ON suppliers
  FOR EACH ROW EXECUTE FUNCTION record_change('supplier');
--> statement-breakpoint
CREATE TRIGGER cultivar_suppliers_record_change AFTER INSERT OR UPDATE OR DELETE ON cultivar_suppliers
  FOR EACH ROW EXECUTE FUNCTION record_change('cultivar_supplier');
--> statement-breakpoint
CREATE TRIGGER companions_record_change AFTER INSERT OR UPDATE OR DELETE ON companions
  FOR EACH ROW EXECUTE FUNCTION record_change('companion');
--> statement-breakpoint
CREATE TRIGGER images_record_change AFTER INSERT OR UPDATE OR DELETE ON images
  FOR EACH ROW EXECUTE FUNCTION record_change('image');
--> statement-breakpoint
-- Positions in commit order. Sequence values are handed out when rows are inserted, not when
-- their transactions commit, so a reader could see 12 before 11 commits and skip it. Instead a
-- deferred constraint trigger runs when the transaction commits: it takes the counter row's lock
-- (held until the commit is done), advances the counter by the number of this transaction's
-- entries and numbers them. The next committing writer waits for that lock, so it numbers only
-- after this transaction is visible: a reader that sees position n + 1 sees n too. A rollback
-- releases the lock and undoes the counter: no gap. The trigger fires once per entry; the first
-- firing numbers them all and the others return at once (plants.numbered_through).
CREATE FUNCTION number_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  me bigint := pg_current_xact_id()::text::bigint;
  done bigint := coalesce(nullif(current_setting('plants.numbered_through', true), ''), '0')::bigint;
  pending bigint;
  top bigint;
  last bigint;
BEGIN
  IF NEW.id <= done THEN RETURN NULL; END IF;
  SELECT count(*), max(id) INTO pending, top FROM changes WHERE txid = me AND position IS NULL;
  IF pending = 0 THEN RETURN NULL; END IF;
  UPDATE change_counter SET last_position = last_position + pending RETURNING last_position INTO last;
  UPDATE changes c SET position = last - pending + p.n, committed_at = clock_timestamp()
    FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM changes WHERE txid = me AND position IS NULL) p
    WHERE c.id = p.id;
  PERFORM set_config('plants.numbered_through', top::text, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER changes_number AFTER INSERT ON changes DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION number_changes();
