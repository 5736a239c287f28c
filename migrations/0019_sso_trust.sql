CREATE TABLE "sso_link_requests" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	CONSTRAINT "sso_link_requests_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "sso_link_requests_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "owner_tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD COLUMN "linked_by" text DEFAULT 'provisioning' NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_link_requests" ADD CONSTRAINT "sso_link_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_link_requests" ADD CONSTRAINT "sso_link_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_link_requests_expires" ON "sso_link_requests" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_owner_tenant_id_tenants_id_fk" FOREIGN KEY ("owner_tenant_id") REFERENCES "public"."tenants"("id") ON DELETE set null ON UPDATE no action;