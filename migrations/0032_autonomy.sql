-- 0032_autonomy: the autonomy ledger (Part B 2.8, issue 26) and the note kept beside the kill switch (whose state
-- is the setting autonomy.disabled_until). Row-level security comes from the tenant_id column (migrate.ts).
CREATE TABLE "autonomy_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"detection_id" uuid NOT NULL,
	"rule_id" text NOT NULL,
	"action_id" text NOT NULL,
	"blast_class" text NOT NULL,
	"target_id" text NOT NULL,
	"effect" text NOT NULL,
	"mode" text NOT NULL,
	"level" text NOT NULL,
	"adjudication" text NOT NULL,
	"decided_by" text,
	"decided_by_type" text,
	"decision_reason" text,
	"world_fingerprint" text NOT NULL,
	"result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"executed_at" timestamp with time zone,
	"reverted_at" timestamp with time zone,
	"reverted_by" text,
	"revert_reason" text
);
--> statement-breakpoint
CREATE TABLE "autonomy_kill_switch_notes" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"until" text NOT NULL,
	"reason" text,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "autonomy_decisions" ADD CONSTRAINT "autonomy_decisions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autonomy_kill_switch_notes" ADD CONSTRAINT "autonomy_kill_switch_notes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "autonomy_decisions_detection" ON "autonomy_decisions" USING btree ("tenant_id","detection_id");--> statement-breakpoint
CREATE INDEX "autonomy_decisions_tenant_time" ON "autonomy_decisions" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "autonomy_decisions_class_time" ON "autonomy_decisions" USING btree ("tenant_id","blast_class","executed_at");--> statement-breakpoint
CREATE INDEX "autonomy_decisions_executing" ON "autonomy_decisions" USING btree ("created_at") WHERE "mode" = 'executing';
