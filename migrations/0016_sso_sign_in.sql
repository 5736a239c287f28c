CREATE TABLE "sso_identities" (
	"tenant_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_sign_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_identities_tenant_id_protocol_issuer_subject_pk" PRIMARY KEY("tenant_id","protocol","issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "sso_oidc_flows" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"state_hash" text NOT NULL,
	"browser_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	CONSTRAINT "sso_oidc_flows_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "sso_oidc_flows_state_hash_unique" UNIQUE("state_hash")
);
--> statement-breakpoint
CREATE TABLE "sso_sign_ins" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"user_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"provider_session_id" text,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "sso_sign_ins_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "sso_sign_ins_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_oidc_flows" ADD CONSTRAINT "sso_oidc_flows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_sign_ins" ADD CONSTRAINT "sso_sign_ins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_sign_ins" ADD CONSTRAINT "sso_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_identities_tenant_user" ON "sso_identities" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "sso_oidc_flows_expires" ON "sso_oidc_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sso_sign_ins_tenant_user" ON "sso_sign_ins" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "sso_sign_ins_tenant_sid" ON "sso_sign_ins" USING btree ("tenant_id","issuer","provider_session_id");--> statement-breakpoint
CREATE INDEX "sso_sign_ins_created" ON "sso_sign_ins" USING btree ("created_at");