CREATE TABLE "scim_configs" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"token_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text NOT NULL,
	"token_created_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scim_configs_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "scim_group_members" (
	"tenant_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scim_group_members_tenant_id_group_id_member_id_pk" PRIMARY KEY("tenant_id","group_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"display_name" text NOT NULL,
	"display_name_key" text NOT NULL,
	"external_id" text,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scim_groups_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"user_name" text NOT NULL,
	"user_name_key" text NOT NULL,
	"external_id" text,
	"display_name" text,
	"given_name" text,
	"family_name" text,
	"formatted_name" text,
	"emails" jsonb NOT NULL,
	"active" boolean NOT NULL,
	"owns_account" boolean NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scim_users_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "scim_configs" ADD CONSTRAINT "scim_configs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_tenant_id_group_id_scim_groups_tenant_id_id_fk" FOREIGN KEY ("tenant_id","group_id") REFERENCES "public"."scim_groups"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_tenant_id_member_id_scim_users_tenant_id_id_fk" FOREIGN KEY ("tenant_id","member_id") REFERENCES "public"."scim_users"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_groups" ADD CONSTRAINT "scim_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scim_group_members_member" ON "scim_group_members" USING btree ("tenant_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_tenant_display_name" ON "scim_groups" USING btree ("tenant_id","display_name_key");--> statement-breakpoint
CREATE INDEX "scim_groups_tenant_external" ON "scim_groups" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE INDEX "scim_groups_tenant_created" ON "scim_groups" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_tenant_user_name" ON "scim_users" USING btree ("tenant_id","user_name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_tenant_user" ON "scim_users" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "scim_users_tenant_external" ON "scim_users" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE INDEX "scim_users_tenant_created" ON "scim_users" USING btree ("tenant_id","created_at","id");