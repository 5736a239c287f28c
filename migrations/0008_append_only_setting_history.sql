-- A setting's history (Part A 4.8) is append-only: the service role may add to it, never change or remove it
-- (src/kernel/db/migrate.ts revokes UPDATE and DELETE on every table whose comment starts with "append-only").
COMMENT ON TABLE "tenant_setting_history" IS 'append-only: who changed a setting, from what, to what, when';
