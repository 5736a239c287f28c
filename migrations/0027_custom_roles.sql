-- 0027_custom_roles: an organization's custom roles (Part A 5.9, issue 23). Members and invitations hold one by
-- its code in their `role` column; the tenant-isolation policy is added by the migrator (every tenant_id table).
CREATE TABLE "custom_roles" (
	"tenant_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_roles_tenant_id_code_pk" PRIMARY KEY("tenant_id","code"),
	CONSTRAINT "custom_roles_code_syntax" CHECK ("custom_roles"."code" ~ '^[a-z][a-z0-9_-]{1,63}$')
);
--> statement-breakpoint
ALTER TABLE "custom_roles" ADD CONSTRAINT "custom_roles_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A role's permissions are part of every holder's auth state (sessions and agents delegated by a holder cache
-- them per node): any change notifies `tenant:<id>` and marks the transaction, like a membership's role change.
CREATE TRIGGER custom_roles_auth_state AFTER UPDATE OR DELETE ON "public"."custom_roles"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER custom_roles_inserted_auth_state AFTER INSERT ON "public"."custom_roles"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state_inserted();
