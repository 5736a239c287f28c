-- 0024_content_approvals: agent-authored content (Part B 4.3). Content asks are rows of approval_requests with
-- resource_type 'content' and fingerprint = the content's SHA-256; reversals of published content have a table.
CREATE TABLE "content_reversals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"approval_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"content_hash" text NOT NULL,
	"reason" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_reversals" ADD CONSTRAINT "content_reversals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_reversals" ADD CONSTRAINT "content_reversals_approval_id_approval_requests_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approval_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_reversals" ADD CONSTRAINT "content_reversals_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "content_reversals_approval" ON "content_reversals" USING btree ("tenant_id","approval_id");--> statement-breakpoint
CREATE INDEX "content_reversals_agent" ON "content_reversals" USING btree ("tenant_id","agent_id","recorded_at");--> statement-breakpoint
-- One live ask per agent and content hash: a repeated request answers the live one, and an ask whose 24 hours
-- ran out undecided is marked expired before a new one is added (src/modules/approvals/content-service.ts).
CREATE UNIQUE INDEX "approval_requests_content_live" ON "approval_requests" USING btree ("tenant_id","agent_id","fingerprint") WHERE "resource_type" = 'content' AND "status" IN ('pending', 'approved');--> statement-breakpoint
-- Consume and reversal find a content hash's asks in the organization, newest first, whichever agent asked.
CREATE INDEX "approval_requests_content_hash" ON "approval_requests" USING btree ("tenant_id","fingerprint","created_at") WHERE "resource_type" = 'content';
