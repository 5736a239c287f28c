import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../kernel/db/index.js';
import { events } from '../../kernel/events/schema.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';

/** Version of the export document's shape (docs/privacy.md); bumped when a field changes meaning. */
export const EXPORT_FORMAT = 'svc.personal-data/1';

/** The section the kernel's events contribute: what happened to the subject, as their activity feed shows it. */
export const SECURITY_EVENTS_SECTION = 'security_events';

export interface PersonalDataDocument {
  format: string;
  generated_at: string;
  tenant_id: string;
  user_id: string;
  sections: Record<string, unknown>;
}

/** The subject's security events in this organization, oldest first. */
async function securityEvents(tx: Tx, tenantId: string, userId: string) {
  const found = await tx
    .select({
      id: events.id,
      occurredAt: events.occurredAt,
      category: events.category,
      action: events.action,
      severity: events.severity,
      outcome: events.outcome,
      actorType: events.actorType,
      data: events.data,
    })
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.subjectUserId, userId)))
    .orderBy(asc(events.occurredAt), asc(events.id));
  return found.map((e) => ({
    event_id: e.id,
    occurred_at: e.occurredAt.toISOString(),
    category: e.category,
    action: e.action,
    severity: e.severity,
    outcome: e.outcome,
    actor_type: e.actorType,
    data: e.data,
  }));
}

/**
 * Access and portability export (GDPR Art. 15 and 20) of one person within one organization: every
 * registered contributor's section plus their security events. Runs in the organization's tenant
 * transaction, so row-level security keeps every other organization out of it.
 */
export async function assemblePersonalData(
  tx: Tx,
  registry: PersonalDataRegistry,
  input: { tenantId: string; userId: string; now: Date },
): Promise<PersonalDataDocument> {
  const sections: Record<string, unknown> = {};
  for (const contributor of registry.contributors()) {
    sections[contributor.name] = await contributor.export(tx, input.tenantId, input.userId);
  }
  sections[SECURITY_EVENTS_SECTION] = await securityEvents(tx, input.tenantId, input.userId);
  return {
    format: EXPORT_FORMAT,
    generated_at: input.now.toISOString(),
    tenant_id: input.tenantId,
    user_id: input.userId,
    sections,
  };
}
