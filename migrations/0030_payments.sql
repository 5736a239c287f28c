-- 0030_payments: payment step-up elevations (Part B 2.5, 3, 4.7; issue 25). The tenant-isolation policy is added by
-- the migrator (every tenant_id table).
CREATE TABLE "payment_elevations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"context" jsonb,
	"fingerprint" text NOT NULL,
	"display" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"categories" jsonb NOT NULL,
	"methods_used" jsonb NOT NULL,
	"webauthn_challenge" text,
	"source_ip" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"satisfied_at" timestamp with time zone,
	"spent_at" timestamp with time zone,
	"spent_by" text
);
--> statement-breakpoint
ALTER TABLE "payment_elevations" ADD CONSTRAINT "payment_elevations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_elevations" ADD CONSTRAINT "payment_elevations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_elevations" ADD CONSTRAINT "payment_elevations_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_elevations_session" ON "payment_elevations" USING btree ("tenant_id","session_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_elevations_user" ON "payment_elevations" USING btree ("tenant_id","user_id");
