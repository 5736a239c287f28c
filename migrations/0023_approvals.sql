-- 0023_approvals: the approval queue (Part B 4.3, issue 21): who asked, each person's decision (one per person
-- and ask), and the queue's newest-first index.
ALTER TABLE "approval_requests" ADD COLUMN "requested_by" text;--> statement-breakpoint
CREATE TABLE "approval_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"approval_request_id" uuid NOT NULL,
	"decided_by" text NOT NULL,
	"approve" boolean NOT NULL,
	"reason" text,
	"break_glass" boolean DEFAULT false NOT NULL,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_decisions" ADD CONSTRAINT "approval_decisions_approval_request_id_approval_requests_id_fk" FOREIGN KEY ("approval_request_id") REFERENCES "public"."approval_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_decisions_once" ON "approval_decisions" USING btree ("tenant_id","approval_request_id","decided_by");--> statement-breakpoint
CREATE INDEX "approval_requests_queue" ON "approval_requests" USING btree ("tenant_id","created_at","id");
