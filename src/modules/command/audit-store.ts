// Reads of the kernel's hash-chained audit log (no second log). One organization's entries come from the
// (tenant_id, seq) index, newest first; the platform operator's read of every organization walks seq itself.
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { Tx } from '../../kernel/db/index.js';
import { auditLog } from '../../kernel/events/schema.js';

export interface AuditFilter {
  /** One organization, or every organization (null: the platform operator). */
  tenantId: string | null;
  action?: string | undefined;
  actorId?: string | undefined;
}

export type AuditRow = typeof auditLog.$inferSelect;

/** Up to `limit` entries matching `filter`, newest first, below `beforeSeq` when given. */
export async function listAuditEntries(
  tx: Tx,
  filter: AuditFilter,
  limit: number,
  beforeSeq?: number,
): Promise<AuditRow[]> {
  const conditions = [
    filter.tenantId !== null && eq(auditLog.tenantId, filter.tenantId),
    filter.action !== undefined && eq(auditLog.action, filter.action),
    filter.actorId !== undefined && eq(auditLog.actorId, filter.actorId),
    beforeSeq !== undefined && lt(auditLog.seq, beforeSeq),
  ].filter((condition): condition is SQL => Boolean(condition));
  return tx
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.seq))
    .limit(limit);
}
