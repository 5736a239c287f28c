-- 0029_onboarding: agent onboarding (Part B 1.2, 4.5, issue 23). Invite codes issued by the platform operator,
-- bootstrap attempts (device flow, email link, hosted verification) and single-use proof-of-work challenges.
-- None is tenant-scoped: each exists before the organization it may create, so the column naming the created
-- organization is `organization_id` (no row-level security; read and written in system transactions only).
CREATE TABLE "onboarding_invite_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"code_prefix" text NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"door" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"consumed_organization_id" uuid
);
--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_invite_codes_hash" ON "onboarding_invite_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "onboarding_invite_codes_listing" ON "onboarding_invite_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE TABLE "onboarding_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"organization_name" text NOT NULL,
	"client_info" jsonb,
	"manifest" jsonb,
	"invite_code_id" uuid,
	"status" text NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code_hash" text,
	"codes_expire_at" timestamp with time zone NOT NULL,
	"poll_interval_seconds" integer NOT NULL,
	"last_polled_at" timestamp with time zone,
	"link_token_hash" text,
	"link_expires_at" timestamp with time zone,
	"email_confirmed_at" timestamp with time zone,
	"browser_hash" text,
	"organization_id" uuid,
	"owner_user_id" uuid,
	"owner_created" boolean DEFAULT false NOT NULL,
	"owner_session_id" uuid,
	"agent_id" uuid,
	"approved_at" timestamp with time zone,
	"denied_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_attempts_device_code" ON "onboarding_attempts" USING btree ("device_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_attempts_user_code" ON "onboarding_attempts" USING btree ("user_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_attempts_link" ON "onboarding_attempts" USING btree ("link_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_attempts_browser" ON "onboarding_attempts" USING btree ("browser_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "onboarding_attempts_one_open_per_email" ON "onboarding_attempts" USING btree ("email_key") WHERE "status" IN ('pending', 'approved');--> statement-breakpoint
CREATE TABLE "onboarding_pow_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"bits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone
);
