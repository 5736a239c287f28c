CREATE TABLE "account_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"event_tenant_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	CONSTRAINT "account_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "early_access_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"full_name" text NOT NULL,
	"role" text NOT NULL,
	"organization" text NOT NULL,
	"app_name" text,
	"app_url" text,
	"app_description" text,
	"stage" text NOT NULL,
	"platforms" jsonb NOT NULL,
	"integrations" jsonb NOT NULL,
	"test_goals" text NOT NULL,
	"expected_users" text NOT NULL,
	"expected_agents" text NOT NULL,
	"timeline" text NOT NULL,
	"consent" boolean NOT NULL,
	"acknowledgement" boolean NOT NULL,
	"consent_text_version" text NOT NULL,
	"acknowledgement_text_version" text NOT NULL,
	"intended_use" text,
	"source" text,
	"submissions" integer DEFAULT 1 NOT NULL,
	"confirm_token_hash" text,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "early_access_requests_email_key_unique" UNIQUE("email_key"),
	CONSTRAINT "early_access_requests_confirm_token_hash_unique" UNIQUE("confirm_token_hash")
);
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_tokens_user" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
-- Erasure (Part A 4.10) scrubs a global account only when no other organization still holds a membership of
-- it. Row-level security hides other organizations' memberships from a tenant transaction; this function,
-- owned by the migrating role, answers only the count.
CREATE OR REPLACE FUNCTION "public".svc_memberships_elsewhere(p_user uuid, p_tenant uuid) RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
  SELECT count(*) FROM "public"."memberships" m
  WHERE m.user_id = p_user AND m.tenant_id <> p_tenant AND m.status <> 'removed'
$$;
