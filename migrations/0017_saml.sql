CREATE TABLE "saml_connections" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"idp_entity_id" text NOT NULL,
	"sso_url" text NOT NULL,
	"slo_url" text,
	"idp_certificates" jsonb NOT NULL,
	"allowed_domains" jsonb NOT NULL,
	"enabled" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_requests" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"browser_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	CONSTRAINT "saml_requests_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "saml_seen_messages" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"message_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_seen_messages_tenant_id_kind_message_id_pk" PRIMARY KEY("tenant_id","kind","message_id")
);
--> statement-breakpoint
ALTER TABLE "saml_connections" ADD CONSTRAINT "saml_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_seen_messages" ADD CONSTRAINT "saml_seen_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saml_requests_expires" ON "saml_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "saml_seen_messages_expires" ON "saml_seen_messages" USING btree ("expires_at");