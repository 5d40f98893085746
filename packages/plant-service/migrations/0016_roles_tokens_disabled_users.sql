-- Every token now expires. Tokens made without an expiry get the default lifetime (90 days) from
-- now, and none may outlive the maximum (365 days from now), whatever it was created with.
UPDATE "api_tokens" SET "expires_at" = LEAST(COALESCE("expires_at", now() + interval '90 days'), now() + interval '365 days');--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "roles_checked_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Roles count as confirmed at the user's last sign-in, not at this migration.
UPDATE "users" SET "roles_checked_at" = COALESCE("last_login_at", "updated_at");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_disabled_by_users_id_fk" FOREIGN KEY ("disabled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
