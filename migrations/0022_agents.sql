-- AI agents as principals (Part B 2.1, 2.2): agents, their delegations, task tokens, federated issuers and
-- bindings, spent attestation ids, and the approval requests of parked agent actions (Part B 2.3).
CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"credential_hash" text NOT NULL,
	"credential_prefix" text NOT NULL,
	"credential_issued_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"oversight_mode" text NOT NULL,
	"risk_ceiling" integer NOT NULL,
	"confidence_floor" double precision NOT NULL,
	"write_budget_per_hour" integer,
	"kill_switch_engaged" boolean DEFAULT false NOT NULL,
	"kill_switch_reason" text,
	"kill_switch_by_id" text,
	"kill_switch_by_type" text,
	"kill_switch_at" timestamp with time zone,
	"token_epoch" integer DEFAULT 0 NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"suspended_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "agents_credential_hash_unique" UNIQUE("credential_hash")
);
--> statement-breakpoint
CREATE TABLE "agent_delegations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"delegator_user_id" uuid NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "agent_tasks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"task" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"budget" integer NOT NULL,
	"remaining" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_issuers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"jwks_uri" text NOT NULL,
	"profile" text NOT NULL,
	"name" text,
	"enabled" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_issuer_bindings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"issuer_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"claims" jsonb NOT NULL,
	"claims_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_issuer_jtis" (
	"tenant_id" uuid NOT NULL,
	"issuer_id" uuid NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_issuer_jtis_issuer_id_jti_pk" PRIMARY KEY("issuer_id","jti")
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" uuid,
	"status" text NOT NULL,
	"resource_type" text NOT NULL,
	"fingerprint" text NOT NULL,
	"resource" jsonb,
	"required_permission" text,
	"required_approvals" integer DEFAULT 1 NOT NULL,
	"approvals_recorded" integer DEFAULT 0 NOT NULL,
	"justification" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"reason" text,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_delegations" ADD CONSTRAINT "agent_delegations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_delegations" ADD CONSTRAINT "agent_delegations_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_delegations" ADD CONSTRAINT "agent_delegations_delegator_user_id_users_id_fk" FOREIGN KEY ("delegator_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_tasks" ADD CONSTRAINT "agent_tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_tasks" ADD CONSTRAINT "agent_tasks_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuers" ADD CONSTRAINT "agent_issuers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuer_bindings" ADD CONSTRAINT "agent_issuer_bindings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuer_bindings" ADD CONSTRAINT "agent_issuer_bindings_issuer_id_agent_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."agent_issuers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuer_bindings" ADD CONSTRAINT "agent_issuer_bindings_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuer_jtis" ADD CONSTRAINT "agent_issuer_jtis_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_issuer_jtis" ADD CONSTRAINT "agent_issuer_jtis_issuer_id_agent_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."agent_issuers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_tenant" ON "agents" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_delegations_agent" ON "agent_delegations" USING btree ("tenant_id","agent_id");--> statement-breakpoint
CREATE INDEX "agent_delegations_delegator" ON "agent_delegations" USING btree ("tenant_id","delegator_user_id");--> statement-breakpoint
CREATE INDEX "agent_tasks_agent" ON "agent_tasks" USING btree ("tenant_id","agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_issuers_tenant_issuer" ON "agent_issuers" USING btree ("tenant_id","issuer");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_issuer_bindings_claims" ON "agent_issuer_bindings" USING btree ("issuer_id","claims_key");--> statement-breakpoint
CREATE INDEX "approval_requests_tenant" ON "approval_requests" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "approval_requests_fingerprint" ON "approval_requests" USING btree ("tenant_id","agent_id","fingerprint");--> statement-breakpoint
-- An agent's governance state and authority are cached per node (src/modules/agents): every change to an agent
-- or a delegation drops the organization's entries on every node before it is answered, like a session's.
CREATE TRIGGER agents_auth_state AFTER UPDATE OR DELETE ON "public"."agents"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER agent_delegations_auth_state AFTER UPDATE OR DELETE ON "public"."agent_delegations"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER agent_delegations_inserted_auth_state AFTER INSERT ON "public"."agent_delegations"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state_inserted();
