CREATE TABLE "oauth_authorization_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"scope" text NOT NULL,
	"nonce" text,
	"code_challenge" text NOT NULL,
	"resource" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	"grant_session_id" uuid,
	CONSTRAINT "oauth_authorization_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "oauth_consents" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "oauth_consents_tenant_id_user_id_client_id_pk" PRIMARY KEY("tenant_id","user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "oidc_backchannel_logouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"sid" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "parent_session_id" uuid;--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_client_fk" FOREIGN KEY ("tenant_id","client_id") REFERENCES "public"."oauth_clients"("tenant_id","client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_client_fk" FOREIGN KEY ("tenant_id","client_id") REFERENCES "public"."oauth_clients"("tenant_id","client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_backchannel_logouts" ADD CONSTRAINT "oidc_backchannel_logouts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_authorization_codes_expiry" ON "oauth_authorization_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_backchannel_logouts_client_sid" ON "oidc_backchannel_logouts" USING btree ("tenant_id","client_id","sid");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_parent_session_id_sessions_id_fk" FOREIGN KEY ("parent_session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_parent" ON "sessions" USING btree ("parent_session_id");--> statement-breakpoint
-- A grant session belongs to a client of its own organization and goes with it (Part A 2.8: a client belongs to
-- exactly one organization). Written here because accounts/schema.ts cannot import the OAuth tables.
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_client_fk" FOREIGN KEY ("tenant_id","client_id") REFERENCES "public"."oauth_clients"("tenant_id","client_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Back-channel logout (Part A 4.14): queues a logout token for each client with a back-channel URI whose grant
-- ended. Owned by the migrating role: it reads and writes across organizations when an account-wide change
-- (epoch bump, disabled account) ends grants everywhere.
CREATE OR REPLACE FUNCTION "public".svc_oidc_queue_logout(p_tenant uuid, p_session uuid) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  INSERT INTO "public"."oidc_backchannel_logouts" (id, tenant_id, client_id, user_id, sid, created_at)
    SELECT gen_random_uuid(), s.tenant_id, s.client_id, s.user_id, coalesce(s.parent_session_id, s.id), now()
    FROM "public"."sessions" s
    JOIN "public"."oauth_clients" c ON c.tenant_id = s.tenant_id AND c.client_id = s.client_id
    JOIN "public"."tenants" t ON t.id = s.tenant_id
    WHERE s.tenant_id = p_tenant AND s.id = p_session AND c.backchannel_logout_uri IS NOT NULL
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    PERFORM pg_notify('svc_oidc_logout', '');
  END IF;
END $$;
--> statement-breakpoint
-- A session that ends takes the grants made from it (the provider's browser session) along, and queues the
-- logout of a grant session.
CREATE OR REPLACE FUNCTION "public".svc_session_ended() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  UPDATE "public"."sessions" SET revoked_at = NEW.revoked_at, revoked_reason = NEW.revoked_reason
    WHERE parent_session_id = NEW.id AND revoked_at IS NULL;
  IF NEW.client_id IS NOT NULL THEN
    PERFORM "public".svc_oidc_queue_logout(NEW.tenant_id, NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER UPDATE OF revoked_at ON "public"."sessions"
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION "public".svc_session_ended();
--> statement-breakpoint
-- Sign-out-everywhere, a password change or reset (epoch bump) and a disabled account end every grant of the
-- account, in every organization.
CREATE OR REPLACE FUNCTION "public".svc_account_grants_ended() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE
  grant_session record;
BEGIN
  FOR grant_session IN
    SELECT tenant_id, id FROM "public"."sessions"
    WHERE user_id = NEW.id AND client_id IS NOT NULL AND revoked_at IS NULL AND epoch = OLD.token_epoch
  LOOP
    PERFORM "public".svc_oidc_queue_logout(grant_session.tenant_id, grant_session.id);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_grants_ended AFTER UPDATE OF token_epoch, status ON "public"."users"
  FOR EACH ROW WHEN (NEW.token_epoch <> OLD.token_epoch OR (OLD.status = 'active' AND NEW.status <> 'active'))
  EXECUTE FUNCTION "public".svc_account_grants_ended();
--> statement-breakpoint
-- A membership that stops being active (removal, suspension) ends the person's grants in that organization.
CREATE OR REPLACE FUNCTION "public".svc_membership_grants_ended() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE
  grant_session record;
BEGIN
  FOR grant_session IN
    SELECT s.tenant_id, s.id FROM "public"."sessions" s JOIN "public"."users" u ON u.id = s.user_id
    WHERE s.tenant_id = OLD.tenant_id AND s.user_id = OLD.user_id AND s.client_id IS NOT NULL
      AND s.revoked_at IS NULL AND s.epoch = u.token_epoch
  LOOP
    PERFORM "public".svc_oidc_queue_logout(grant_session.tenant_id, grant_session.id);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER memberships_grants_ended AFTER UPDATE OF status ON "public"."memberships"
  FOR EACH ROW WHEN (OLD.status = 'active' AND NEW.status <> 'active')
  EXECUTE FUNCTION "public".svc_membership_grants_ended();
--> statement-breakpoint
CREATE TRIGGER memberships_deleted_grants_ended AFTER DELETE ON "public"."memberships"
  FOR EACH ROW WHEN (OLD.status = 'active')
  EXECUTE FUNCTION "public".svc_membership_grants_ended();
