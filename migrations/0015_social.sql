CREATE TABLE "social_flows" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"provider" text NOT NULL,
	"purpose" text NOT NULL,
	"link_user_id" uuid,
	"link_session_id" uuid,
	"state_hash" text NOT NULL,
	"browser_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"callback_at" timestamp with time zone,
	"user_id" uuid,
	"completion_hash" text,
	"completion_expires_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "social_flows_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "social_flows_state_hash_unique" UNIQUE("state_hash"),
	CONSTRAINT "social_flows_completion_hash_unique" UNIQUE("completion_hash")
);
--> statement-breakpoint
CREATE TABLE "social_identities" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "social_identities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "social_flows" ADD CONSTRAINT "social_flows_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_flows" ADD CONSTRAINT "social_flows_link_user_id_users_id_fk" FOREIGN KEY ("link_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_flows" ADD CONSTRAINT "social_flows_link_session_id_sessions_id_fk" FOREIGN KEY ("link_session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_flows" ADD CONSTRAINT "social_flows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_identities" ADD CONSTRAINT "social_identities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_identities" ADD CONSTRAINT "social_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "social_flows_tenant_user" ON "social_flows" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "social_flows_tenant_link_user" ON "social_flows" USING btree ("tenant_id","link_user_id");--> statement-breakpoint
CREATE INDEX "social_flows_expires" ON "social_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "social_identities_tenant_provider_subject" ON "social_identities" USING btree ("tenant_id","provider","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "social_identities_tenant_user_provider" ON "social_identities" USING btree ("tenant_id","user_id","provider");