-- Auth-state notifications: any change that can end a session's validity (revocation, epoch bump, account
-- status, membership status or role, organization quarantine, deletions) notifies channel svc_auth_state with
-- "<schema> <subject>", so every node drops what it cached about that subject (see docs/decisions.md).
CREATE OR REPLACE FUNCTION "public".svc_notify_auth_state() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subject text;
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    subject := 'user:' || OLD.id;
  ELSIF TG_TABLE_NAME = 'tenants' THEN
    subject := 'tenant:' || OLD.id;
  ELSE
    subject := 'tenant:' || OLD.tenant_id;
  END IF;
  PERFORM pg_notify('svc_auth_state', TG_TABLE_SCHEMA || ' ' || subject);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_state AFTER UPDATE OF revoked_at, epoch, user_id, tenant_id OR DELETE ON "public"."sessions"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER users_auth_state AFTER UPDATE OF status, token_epoch, email_verified OR DELETE ON "public"."users"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER memberships_auth_state AFTER UPDATE OF status, role, population, user_id, tenant_id OR DELETE ON "public"."memberships"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
--> statement-breakpoint
CREATE TRIGGER tenants_auth_state AFTER UPDATE OF quarantined, isolation OR DELETE ON "public"."tenants"
  FOR EACH ROW EXECUTE FUNCTION "public".svc_notify_auth_state();
