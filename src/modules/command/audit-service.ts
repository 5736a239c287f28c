// The audit chain for the Command Center (Part B 2.7, 4.8): entries with their compliance tags and hashes, and the
// whole chain's verification from genesis.
import type { Principal } from '../../kernel/auth/principal.js';
import { type AuditVerification, hashedFields } from '../../kernel/events/index.js';
import { decodeCursor, pageOf } from '../../kernel/http/index.js';
import { type AuditRow, listAuditEntries } from './audit-store.js';
import type { CommandDeps } from './deps.js';
import { readScope, readWithin } from './scope.js';

export interface AuditQuery {
  action?: string;
  actor_id?: string;
  tenant_id?: string;
  limit: number;
  cursor?: string;
}

/**
 * An audit entry as listed: every field its hash covers, under the names it is hashed with, so anyone holding the
 * previous entry's hash can recompute `entry_hash` (docs/command-center.md).
 */
export type AuditEntryView = ReturnType<typeof hashedFields> & { prev_hash: string; entry_hash: string };

const viewOf = (row: AuditRow): AuditEntryView => ({
  ...hashedFields(row),
  prev_hash: row.prevHash,
  entry_hash: row.entryHash,
});

export function createAuditReader(deps: CommandDeps) {
  return {
    /** Audit entries in the caller's scope, newest (highest seq) first. */
    async list(principal: Principal, query: AuditQuery) {
      const beforeSeq = decodeCursor(query.cursor, ['integer'])?.[0] as number | undefined;
      const scope = await readScope(deps, principal, query.tenant_id);
      const filter = { tenantId: scope.tenantId, action: query.action, actorId: query.actor_id };
      const found = await readWithin(deps, scope, (tx) => listAuditEntries(tx, filter, query.limit + 1, beforeSeq));
      const page = pageOf(found, query.limit, (row) => [row.seq]);
      return { entries: page.rows.map(viewOf), next_cursor: page.next };
    },

    /** The whole chain from genesis, every organization's entries (the route is the platform operator's). */
    verify: (): Promise<AuditVerification> => deps.events.verifyAudit(),
  };
}
