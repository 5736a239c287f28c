CREATE TABLE "api_key_usage" (
	"tenant_id" uuid NOT NULL,
	"period" text NOT NULL,
	"api_key_id" uuid NOT NULL,
	"calls" bigint NOT NULL,
	CONSTRAINT "api_key_usage_tenant_id_period_api_key_id_pk" PRIMARY KEY("tenant_id","period","api_key_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"label" text NOT NULL,
	"key_hash" text NOT NULL,
	"environment" text NOT NULL,
	"display_handle" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"lifetime_days" integer,
	"expires_at" timestamp with time zone,
	"created_by_user_id" uuid,
	"created_by_id" text NOT NULL,
	"created_by_type" text NOT NULL,
	"rotated_from_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "api_quota_notices" (
	"tenant_id" uuid NOT NULL,
	"period" text NOT NULL,
	"notified_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_quota_notices_tenant_id_period_pk" PRIMARY KEY("tenant_id","period")
);
--> statement-breakpoint
CREATE TABLE "operator_settings" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "operator_settings_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"replay_of" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text NOT NULL,
	"event_types" jsonb NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"consecutive_failures" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_quota_notices" ADD CONSTRAINT "api_quota_notices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_settings" ADD CONSTRAINT "operator_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_tenant" ON "api_keys" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint" ON "webhook_deliveries" USING btree ("tenant_id","endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant" ON "webhook_endpoints" USING btree ("tenant_id","created_at");--> statement-breakpoint
-- Hand-written (not drizzle-kit): API-key state cached per node is dropped on every node when a key is revoked,
-- re-scoped, re-dated or deleted, or when its organization's plan changes (quarantine already notifies, 0001).
CREATE TRIGGER api_keys_auth_state AFTER UPDATE OF revoked_at, scopes, expires_at, key_hash, tenant_id OR DELETE ON "public"."api_keys"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER tenants_plan_auth_state AFTER UPDATE OF plan ON "public"."tenants"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
