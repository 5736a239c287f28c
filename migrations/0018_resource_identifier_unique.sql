DROP INDEX "oauth_resources_tenant_identifier";--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_resources_identifier" ON "oauth_resources" USING btree ("identifier");--> statement-breakpoint
-- Only the triggers of 0013 call it (as its owner): nobody may queue a back-channel logout by calling it directly.
REVOKE ALL ON FUNCTION "public".svc_oidc_queue_logout(uuid, uuid) FROM PUBLIC;
