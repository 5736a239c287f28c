-- The token and authorization endpoints cache each OAuth client with its organization's plan, slug, state and
-- negotiated allowance per node (modules/oidc/client-cache.ts). These changes drop it on every node, like the
-- other auth-state changes (migration 0001): a changed or deleted client, a new slug, an operator setting.
CREATE TRIGGER oauth_clients_auth_state AFTER UPDATE OR DELETE ON "public"."oauth_clients"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER tenants_slug_auth_state AFTER UPDATE OF slug ON "public"."tenants"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER operator_settings_auth_state AFTER UPDATE OR DELETE ON "public"."operator_settings"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
-- An inserted row has no OLD: the same notification from NEW.
CREATE OR REPLACE FUNCTION "public".svc_notify_auth_state_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_auth_state', TG_TABLE_SCHEMA || ' tenant:' || NEW.tenant_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER operator_settings_inserted_auth_state AFTER INSERT ON "public"."operator_settings"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state_inserted();
