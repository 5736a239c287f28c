-- 0031_operator_plane: the operator plane (Part B 2.9, 4.10; issue 27). Licences, distribution credentials and
-- the release catalogue belong to the platform-operator organization (tenant_id leads every key, so row-level
-- security confines them like any tenant data); a download looks its credential up by SHA-256 only.
CREATE TABLE "licences" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"licensee" text NOT NULL,
	"install_id" text NOT NULL,
	"plan_code" text NOT NULL,
	"term_days" integer NOT NULL,
	"maintenance_days" integer,
	"features_extra" jsonb NOT NULL,
	"caps" jsonb NOT NULL,
	"licensed_tenant_id" uuid,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"maintenance_expires_at" timestamp with time zone NOT NULL,
	"issued_by" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "licences_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "distribution_credentials" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"licence_id" uuid NOT NULL,
	"label" text NOT NULL,
	"secret_hash" text NOT NULL,
	"public_prefix" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "distribution_credentials_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"tenant_id" uuid NOT NULL,
	"version" text NOT NULL,
	"object_key" text NOT NULL,
	"checksum_sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"yanked_at" timestamp with time zone,
	"yanked_by" text,
	CONSTRAINT "releases_tenant_id_version_pk" PRIMARY KEY("tenant_id","version")
);
--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_credentials" ADD CONSTRAINT "distribution_credentials_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distribution_credentials" ADD CONSTRAINT "distribution_credentials_licence_fk" FOREIGN KEY ("tenant_id","licence_id") REFERENCES "public"."licences"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "distribution_credentials_secret_hash" ON "distribution_credentials" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "licences_issued" ON "licences" USING btree ("tenant_id","issued_at");--> statement-breakpoint
CREATE INDEX "distribution_credentials_licence" ON "distribution_credentials" USING btree ("tenant_id","licence_id");
