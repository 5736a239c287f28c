CREATE TABLE "invitations" (
	"tenant_id" uuid NOT NULL,
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"status" text NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"redeemed_by" uuid,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "member_domains" (
	"tenant_id" uuid NOT NULL,
	"id" uuid PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"verification_value" text NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pricing_content" (
	"id" integer PRIMARY KEY NOT NULL,
	"currency" text NOT NULL,
	"note" text NOT NULL,
	"plans" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_domains" ADD CONSTRAINT "member_domains_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_email" ON "invitations" USING btree ("tenant_id","email_key") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "invitations_tenant_status" ON "invitations" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "member_domains_tenant_domain" ON "member_domains" USING btree ("tenant_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "member_domains_verified_domain" ON "member_domains" USING btree ("domain") WHERE verified;--> statement-breakpoint
INSERT INTO "pricing_content" ("id", "currency", "note", "plans", "updated_at", "updated_by") VALUES (1, 'USD', 'Prices exclude taxes. Caps marked null are unlimited. The service is in a private beta.', '[{"plan_code":"free","name":"Free","price":0,"period":"month","blurb":"Everything to ship sign-in for a small team.","cta_label":"Request early access","cta_href":"/early-access","highlights":["Passwords, magic links, passkeys and TOTP","OpenID Provider for your apps","API keys and signed webhooks"],"popular":false,"published":true},{"plan_code":"pro","name":"Pro","price":49,"period":"month","blurb":"For growing products with customers, agents and a security team.","cta_label":"Request early access","cta_href":"/early-access","highlights":["Social login and customer sign-up","Verified-domain auto-join","AI agent principals","Audit export"],"popular":true,"published":true},{"plan_code":"enterprise","name":"Enterprise","price":null,"period":null,"blurb":"Enterprise SSO, SCIM and autonomous response with negotiated limits.","cta_label":"Contact sales","cta_href":"/early-access","highlights":["SAML and OIDC single sign-on, SCIM","Autonomous response","Unlimited seats and users"],"popular":false,"published":true}]'::jsonb, '2026-01-01T00:00:00Z', NULL) ON CONFLICT ("id") DO NOTHING;
