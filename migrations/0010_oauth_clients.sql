CREATE TABLE "oauth_clients" (
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"client_type" text NOT NULL,
	"secret_hash" text,
	"redirect_uris" jsonb NOT NULL,
	"grant_types" jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"post_logout_redirect_uris" jsonb NOT NULL,
	"backchannel_logout_uri" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oauth_clients_tenant_id_client_id_pk" PRIMARY KEY("tenant_id","client_id"),
	CONSTRAINT "oauth_clients_client_id_unique" UNIQUE("client_id"),
	CONSTRAINT "oauth_clients_secret_by_type" CHECK (("oauth_clients"."client_type" = 'confidential') = ("oauth_clients"."secret_hash" is not null))
);
--> statement-breakpoint
CREATE TABLE "oauth_resources" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"identifier" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oauth_resources_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_resources" ADD CONSTRAINT "oauth_resources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_clients_tenant_created" ON "oauth_clients" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_resources_tenant_identifier" ON "oauth_resources" USING btree ("tenant_id","identifier");