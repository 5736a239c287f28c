-- Command Center read plane (issue 22; measured by bench/command.mjs, docs/benchmarks.md "Command Center"): the
-- indexes the Command Center's queries need so that their cost follows what they answer, not how much history the
-- tables hold. Few on purpose: every event is inserted on the write path of the request that caused it, with its
-- audit entry, and each index below is one more entry to write there.
--
-- events (tenant_id, severity, occurred_at DESC, id DESC): `GET /command/events` with `severity` (the filter a
-- security team triages by; high and critical are rare, so without it a severity filter walks the organization's
-- whole history newest first to fill a page). Any other filter of the same request (actor_type, category, since)
-- is checked on the rows this index hands over in order, so the page stops after about limit / share rows.
CREATE INDEX "events_tenant_severity_time" ON "events" USING btree ("tenant_id","severity","occurred_at" DESC,"id" DESC);--> statement-breakpoint
-- events (tenant_id, actor_id, occurred_at DESC, id DESC): `GET /command/events?actor_id=…`, one principal's trail
-- (the pivot from a detection or an incident to what that person or agent did). One actor is a sliver of an
-- organization's events: without it the filter reads the whole history.
CREATE INDEX "events_tenant_actor_time" ON "events" USING btree ("tenant_id","actor_id","occurred_at" DESC,"id" DESC);--> statement-breakpoint
-- events (occurred_at DESC, id DESC): the platform operator's list across every organization (no tenant_id
-- condition), newest first; without it each such page sorts the whole table. Time only grows, so new entries all
-- land on the same edge page of this index.
CREATE INDEX "events_time" ON "events" USING btree ("occurred_at" DESC,"id" DESC);--> statement-breakpoint
-- detections (tenant_id, last_seen DESC, id DESC): `GET /command/detections/summary` (groups seen since `days` ago)
-- and `GET /command/detections` (newest first by last_seen, then id). Detections are written only when a rule fires.
CREATE INDEX "detections_tenant_last_seen" ON "detections" USING btree ("tenant_id","last_seen" DESC,"id" DESC);--> statement-breakpoint
-- audit_log (tenant_id, occurred_at): compliance evidence and reports read one organization's entries of the last
-- `days` days; audit_tenant_seq alone would read every entry the organization ever had.
CREATE INDEX "audit_tenant_time" ON "audit_log" USING btree ("tenant_id","occurred_at");--> statement-breakpoint
-- audit_log, setting changes only: the value each setting has now (its latest `setting.changed` entry) for the
-- controls that name a setting. Partial, so every other audit entry writes nothing here.
CREATE INDEX "audit_setting_changes" ON "audit_log" USING btree ("tenant_id",("data"->>'key'),"seq" DESC) WHERE "action" = 'setting.changed';
