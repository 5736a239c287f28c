CREATE TABLE "consent_events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"seq" bigserial NOT NULL,
	"user_id" uuid NOT NULL,
	"consent_type" text NOT NULL,
	"action" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "consent_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"consent_type" text NOT NULL,
	"granted" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "consents_tenant_id_user_id_consent_type_pk" PRIMARY KEY("tenant_id","user_id","consent_type")
);
--> statement-breakpoint
CREATE TABLE "data_subject_requests" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"request_type" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"rejection_reason" text,
	CONSTRAINT "data_subject_requests_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "retention_archive" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"data_class" text NOT NULL,
	"record_id" uuid NOT NULL,
	"user_id" uuid,
	"record" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	CONSTRAINT "retention_archive_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "retention_policies" (
	"tenant_id" uuid NOT NULL,
	"data_class" text NOT NULL,
	"retention_days" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"archive_before_delete" boolean NOT NULL,
	"legal_hold_exempt" boolean NOT NULL,
	"notes" text,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "retention_policies_tenant_id_data_class_pk" PRIMARY KEY("tenant_id","data_class")
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_subject_requests" ADD CONSTRAINT "data_subject_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_archive" ADD CONSTRAINT "retention_archive_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_policies" ADD CONSTRAINT "retention_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_events_user" ON "consent_events" USING btree ("tenant_id","user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "consent_events_time" ON "consent_events" USING btree ("tenant_id","occurred_at");--> statement-breakpoint
CREATE INDEX "data_subject_requests_user" ON "data_subject_requests" USING btree ("tenant_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_subject_requests_status" ON "data_subject_requests" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "retention_archive_user" ON "retention_archive" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "retention_archive_class" ON "retention_archive" USING btree ("tenant_id","data_class","archived_at");