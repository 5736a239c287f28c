-- The admin console (issue 29, docs/console.md): every organization has a first-party public client for it,
-- created with the organization. Its id derives from the organization's slug (slugs never change), so the
-- console computes it in the browser from the organization a person names: cl_ + the first 22 base64url
-- characters of SHA-256("svc-console:" || slug). Its URIs are paths the OpenID Provider resolves against
-- BASE_URL (unknown here). The client API neither lists nor changes it (first_party).
ALTER TABLE "oauth_clients" ADD COLUMN "first_party" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "public".svc_console_client_id(p_slug text) RETURNS text
  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
  SELECT 'cl_' || substr(translate(encode(sha256(convert_to('svc-console:' || p_slug, 'UTF8')), 'base64'), '+/', '-_'), 1, 22)
$$;
--> statement-breakpoint
-- Owned by the migrating role: an organization is created outside any tenant transaction, and the client row is
-- the organization's data under row-level security.
CREATE OR REPLACE FUNCTION "public".svc_console_client_created() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
  INSERT INTO "public"."oauth_clients" (tenant_id, client_id, name, client_type, secret_hash, redirect_uris,
      grant_types, scopes, post_logout_redirect_uris, backchannel_logout_uri, first_party, created_at, updated_at)
    VALUES (NEW.id, "public".svc_console_client_id(NEW.slug), 'Console', 'public', NULL, '["/console/callback"]',
      '["authorization_code","refresh_token"]', '["openid","profile","email"]', '["/console/"]', NULL, true,
      NEW.created_at, NEW.created_at)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tenants_console_client AFTER INSERT ON "public"."tenants"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_console_client_created();
--> statement-breakpoint
INSERT INTO "oauth_clients" (tenant_id, client_id, name, client_type, secret_hash, redirect_uris, grant_types,
    scopes, post_logout_redirect_uris, backchannel_logout_uri, first_party, created_at, updated_at)
  SELECT t.id, "public".svc_console_client_id(t.slug), 'Console', 'public', NULL, '["/console/callback"]',
    '["authorization_code","refresh_token"]', '["openid","profile","email"]', '["/console/"]', NULL, true,
    t.created_at, t.created_at
  FROM "tenants" t
ON CONFLICT DO NOTHING;
