-- 0033_mcp: the MCP tool gateway (Part B 4.4, issue 24). A registered upstream MCP server of an organization, with
-- its call caps, and its tool allow-list with per-tool risk. The tenant-isolation policy is added by the migrator
-- (every tenant_id table).
CREATE TABLE "mcp_servers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"upstream_url" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"max_calls_per_minute" integer DEFAULT 30 NOT NULL,
	"max_calls_per_day" integer DEFAULT 500 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_server_tools" (
	"tenant_id" uuid NOT NULL,
	"server_id" uuid NOT NULL,
	"name" text NOT NULL,
	"allowed" boolean NOT NULL,
	"risk" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mcp_server_tools_server_id_name_pk" PRIMARY KEY("server_id","name"),
	CONSTRAINT "mcp_server_tools_risk" CHECK ("risk" BETWEEN 0 AND 100)
);
--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_server_tools" ADD CONSTRAINT "mcp_server_tools_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_server_tools" ADD CONSTRAINT "mcp_server_tools_server_id_mcp_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."mcp_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mcp_servers_tenant_name" ON "mcp_servers" USING btree ("tenant_id","name");
