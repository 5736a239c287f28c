-- The revocation cascade moves from database triggers into TypeScript (src/kernel/revocation.ts, wired in
-- src/app.ts): ending a session, an account's sessions or a membership now runs named consequences in the same
-- transaction, where a reader can find them. The triggers and functions of migration 0013 go.
DROP TRIGGER IF EXISTS sessions_ended ON "public"."sessions";
--> statement-breakpoint
DROP TRIGGER IF EXISTS users_grants_ended ON "public"."users";
--> statement-breakpoint
DROP TRIGGER IF EXISTS memberships_grants_ended ON "public"."memberships";
--> statement-breakpoint
DROP TRIGGER IF EXISTS memberships_deleted_grants_ended ON "public"."memberships";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "public".svc_session_ended();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "public".svc_account_grants_ended();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "public".svc_membership_grants_ended();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "public".svc_oidc_queue_logout(uuid, uuid);
--> statement-breakpoint
-- Called by name from src/modules/oidc/revocation.ts (`queueBackchannelLogoutsOfAccount`), never by a trigger.
-- An account-wide end (sign-out-everywhere, password change or reset, erasure) reaches the account's grants in
-- every organization, which row-level security hides from the caller's tenant transaction: this function, owned
-- by the migrating role, is the one place that reads and writes across organizations for it. It queues one
-- back-channel logout per client (with a back-channel URI) and provider session of the grants minted under the
-- account's previous epoch that had not ended yet (Part A 4.14, OIDC Back-Channel Logout 1.0).
CREATE OR REPLACE FUNCTION "public".svc_oidc_queue_account_logouts(p_user uuid, p_previous_epoch integer, p_at timestamptz)
  RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog AS $$
  INSERT INTO "public"."oidc_backchannel_logouts" (id, tenant_id, client_id, user_id, sid, created_at)
    SELECT gen_random_uuid(), s.tenant_id, s.client_id, s.user_id, coalesce(s.parent_session_id, s.id), p_at
    FROM "public"."sessions" s
    JOIN "public"."oauth_clients" c ON c.tenant_id = s.tenant_id AND c.client_id = s.client_id
    WHERE s.user_id = p_user AND s.client_id IS NOT NULL AND s.revoked_at IS NULL AND s.epoch = p_previous_epoch
      AND c.backchannel_logout_uri IS NOT NULL
  ON CONFLICT DO NOTHING
$$;
