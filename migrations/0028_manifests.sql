-- 0028_manifests: IAM manifests (Part B 2.4, 4.6, issue 23). Manifest asks are rows of approval_requests with
-- resource_type 'manifest'; applying one binds OAuth resources to namespaces and records each finished step, so a
-- failed apply resumes where it stopped. The tenant-isolation policy is added by the migrator (every tenant_id table).
CREATE TABLE "manifest_resource_bindings" (
	"tenant_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"identifier" text NOT NULL,
	"namespace" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"manifest_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "manifest_resource_bindings_tenant_id_resource_id_pk" PRIMARY KEY("tenant_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "manifest_applies" (
	"tenant_id" uuid NOT NULL,
	"manifest_hash" text NOT NULL,
	"status" text NOT NULL,
	"approval_id" uuid,
	"approved_by" text,
	"lock_token" uuid,
	"locked_at" timestamp with time zone,
	"steps_total" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "manifest_applies_tenant_id_manifest_hash_pk" PRIMARY KEY("tenant_id","manifest_hash")
);
--> statement-breakpoint
CREATE TABLE "manifest_apply_steps" (
	"tenant_id" uuid NOT NULL,
	"manifest_hash" text NOT NULL,
	"step_index" integer NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	CONSTRAINT "manifest_apply_steps_tenant_id_manifest_hash_step_index_pk" PRIMARY KEY("tenant_id","manifest_hash","step_index")
);
--> statement-breakpoint
ALTER TABLE "manifest_resource_bindings" ADD CONSTRAINT "manifest_resource_bindings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A binding goes with its OAuth resource.
ALTER TABLE "manifest_resource_bindings" ADD CONSTRAINT "manifest_resource_bindings_resource_fk" FOREIGN KEY ("tenant_id","resource_id") REFERENCES "public"."oauth_resources"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifest_applies" ADD CONSTRAINT "manifest_applies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifest_apply_steps" ADD CONSTRAINT "manifest_apply_steps_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "manifest_resource_bindings_namespace" ON "manifest_resource_bindings" USING btree ("tenant_id","namespace");--> statement-breakpoint
-- Apply and request-approval find a manifest's asks in the organization by their fingerprint, newest first.
CREATE INDEX "approval_requests_manifest" ON "approval_requests" USING btree ("tenant_id","fingerprint","created_at") WHERE "resource_type" = 'manifest';--> statement-breakpoint
-- SSO connections scaffolded by a manifest (issue 23 item 2, Part B 2.4). These columns belong to the SSO module's
-- sso_oidc_connections; they are added here because this branch has no other migration slot. A manifest's `sso`
-- section creates the organization's OIDC connection itself, disabled and without a client secret (a manifest never
-- carries one), keeping its display name and default role; the connection cannot be enabled before an admin supplies
-- the secret through PUT /tenants/sso/oidc, which the check below enforces too.
ALTER TABLE "sso_oidc_connections" ALTER COLUMN "client_secret_sealed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_oidc_connections" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "sso_oidc_connections" ADD COLUMN "default_role" text;--> statement-breakpoint
ALTER TABLE "sso_oidc_connections" ADD CONSTRAINT "sso_oidc_connections_secret_before_enabled" CHECK ("client_secret_sealed" IS NOT NULL OR "enabled" = false);
