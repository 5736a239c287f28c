-- Revocation across nodes (docs/decisions.md): a transaction that changed auth state answers only once every
-- node has heard of it. The trigger functions of migrations 0001 and 0014 also mark the transaction
-- (a transaction-local setting), which the kernel reads just before commit to know that it must wait.
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
  PERFORM set_config('svc.auth_state_changed', 'on', true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "public".svc_notify_auth_state_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_auth_state', TG_TABLE_SCHEMA || ' tenant:' || NEW.tenant_id);
  PERFORM set_config('svc.auth_state_changed', 'on', true);
  RETURN NULL;
END $$;
