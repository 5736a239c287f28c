-- Command Center (Part B 2.7, 4.8): incidents. Events, the audit chain and detections are the kernel's tables.
CREATE TABLE "incidents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"severity" text NOT NULL,
	"description" text,
	"detection_ids" jsonb NOT NULL,
	"assignee_id" uuid,
	"status" text NOT NULL,
	"containment" text,
	"remediation" text,
	"root_cause" text,
	"opened_by_id" text NOT NULL,
	"opened_by_type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incidents_tenant_created" ON "incidents" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "incidents_tenant_unresolved" ON "incidents" USING btree ("tenant_id","created_at") WHERE status in ('open', 'investigating', 'contained');
