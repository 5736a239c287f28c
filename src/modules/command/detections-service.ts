import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Severity } from '../../kernel/events/index.js';
import { conflict, notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import { complianceTagsOf } from './compliance-catalogue.js';
import type { CommandDeps } from './deps.js';
import {
  type DetectionRow,
  type DetectionStatus,
  detectionRollup,
  listDetections,
  type OperableScope,
  operableDetection,
  settleDetection,
} from './detections-store.js';
import { isPlatformOperator, readScope, readWithin } from './scope.js';

// Detections (Part B 2.7, 4.8): the kernel's deduplicated groups, read within the caller's scope and settled by an
// operator of their own organization.

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'warn', 'low', 'info'];

export interface DetectionView {
  id: string;
  tenant_id: string | null;
  rule_id: string;
  group_key: string;
  severity: Severity;
  status: DetectionStatus;
  count: number;
  first_seen: string;
  last_seen: string;
  data: Record<string, unknown>;
  note: string | null;
}

export const detectionView = (row: DetectionRow): DetectionView => ({
  id: row.id,
  tenant_id: row.tenantId,
  rule_id: row.ruleId,
  group_key: row.groupKey,
  severity: row.severity,
  status: row.status,
  count: row.count,
  first_seen: row.firstSeen.toISOString(),
  last_seen: row.lastSeen.toISOString(),
  data: row.data,
  note: row.note,
});

export interface DetectionQuery {
  severity?: Severity | undefined;
  rule_id?: string | undefined;
  actor_id?: string | undefined;
  status?: DetectionStatus | undefined;
  tenant_id?: string | undefined;
  limit?: number | undefined;
}

/** The statuses a detection may leave for each settled status: resolved is final (Part B 3). */
const SETTLED_FROM: Record<'acknowledged' | 'resolved', DetectionStatus[]> = {
  acknowledged: ['open'],
  resolved: ['open', 'acknowledged'],
};

const DAY_MS = 86_400_000;

/**
 * Where a mutation acts: the caller's own organization only, even for the platform operator, who also settles
 * platform-level detections (those of no organization: nobody else can).
 */
export async function operableScope(deps: CommandDeps, principal: Principal): Promise<OperableScope> {
  return { tenantId: principal.tenantId, platformLevel: await isPlatformOperator(deps, principal.tenantId) };
}

/** A mutation's transaction: the caller's organization's, or a system one when platform-level rows are in scope. */
export function operateIn<T>(deps: CommandDeps, scope: OperableScope, work: (tx: Tx) => Promise<T>): Promise<T> {
  return scope.platformLevel ? deps.transactions.system(work) : deps.transactions.tenant(scope.tenantId, work);
}

export function createDetectionsService(deps: CommandDeps) {
  return {
    /** `GET /command/detections`: newest first (last seen, then id); `actor_id` matches `actor:<id>` and `agent:<id>` keys. */
    async list(principal: Principal, query: DetectionQuery): Promise<{ detections: DetectionView[] }> {
      const scope = await readScope(deps, principal, query.tenant_id);
      const found = await readWithin(deps, scope, (tx) =>
        listDetections(tx, {
          tenantId: scope.tenantId,
          severity: query.severity,
          ruleId: query.rule_id,
          status: query.status,
          actorId: query.actor_id,
          limit: query.limit ?? 100,
        }),
      );
      return { detections: found.map(detectionView) };
    },

    /** `GET /command/detections/summary`: groups seen in the last `days` days, by severity and by rule. */
    async summary(principal: Principal, query: { days?: number | undefined; tenant_id?: string | undefined }) {
      const scope = await readScope(deps, principal, query.tenant_id);
      const days = query.days ?? 7;
      const since = new Date(deps.clock.now().getTime() - days * DAY_MS);
      const rollup = await readWithin(deps, scope, (tx) => detectionRollup(tx, scope.tenantId, since));
      const bySeverity = SEVERITIES.map((severity) => {
        const rows = rollup.filter((row) => row.severity === severity);
        return {
          severity,
          groups: rows.reduce((sum, row) => sum + row.groups, 0),
          open: rows.reduce((sum, row) => sum + row.open, 0),
          occurrences: rows.reduce((sum, row) => sum + row.occurrences, 0),
        };
      });
      const rules = new Map<string, { rule_id: string; groups: number; open: number; occurrences: number }>();
      const severest = new Map<string, Severity>();
      const lastSeen = new Map<string, Date>();
      for (const row of rollup) {
        const rule = rules.get(row.ruleId) ?? { rule_id: row.ruleId, groups: 0, open: 0, occurrences: 0 };
        rule.groups += row.groups;
        rule.open += row.open;
        rule.occurrences += row.occurrences;
        rules.set(row.ruleId, rule);
        const known = severest.get(row.ruleId);
        if (!known || SEVERITIES.indexOf(row.severity) < SEVERITIES.indexOf(known))
          severest.set(row.ruleId, row.severity);
        const seen = lastSeen.get(row.ruleId);
        if (!seen || row.lastSeen > seen) lastSeen.set(row.ruleId, row.lastSeen);
      }
      const byRule = [...rules.values()]
        .map((rule) => ({
          ...rule,
          severity: severest.get(rule.rule_id)!,
          last_seen: lastSeen.get(rule.rule_id)!.toISOString(),
        }))
        .sort((a, b) => b.open - a.open || b.groups - a.groups || a.rule_id.localeCompare(b.rule_id));
      return {
        tenant_id: scope.tenantId,
        days,
        since: since.toISOString(),
        groups: bySeverity.reduce((sum, row) => sum + row.groups, 0),
        open: bySeverity.reduce((sum, row) => sum + row.open, 0),
        by_severity: bySeverity,
        by_rule: byRule,
      };
    },

    /**
     * `POST /command/detections/{id}/acknowledge`: open -> acknowledged, open or acknowledged -> resolved, in one
     * race-safe statement with its event. Unknown and another organization's are the same 404; a move the
     * detection's status does not allow (it is resolved, or already acknowledged) is 409.
     */
    async acknowledge(
      principal: Principal,
      id: string,
      body: { status?: 'acknowledged' | 'resolved' | undefined; note?: string | undefined },
    ): Promise<DetectionView> {
      if (!isUuid(id)) throw notFound('Detection not found');
      const status = body.status ?? 'acknowledged';
      const scope = await operableScope(deps, principal);
      return operateIn(deps, scope, async (tx) => {
        const settled = await settleDetection(tx, scope, id, { status, from: SETTLED_FROM[status], note: body.note });
        if (!settled) {
          const existing = await operableDetection(tx, scope, id);
          if (!existing) throw notFound('Detection not found');
          throw conflict(`Detection is ${existing.status}: it cannot become ${status}`);
        }
        const action = status === 'resolved' ? 'detection.resolved' : 'detection.acknowledged';
        await deps.events.emit(tx, {
          tenantId: settled.tenantId,
          actor: principal.actor,
          category: 'security',
          action,
          data: {
            detection_id: settled.id,
            rule_id: settled.ruleId,
            group_key: settled.groupKey,
            severity: settled.severity,
            status,
            note: body.note ?? null,
          },
          audit: { complianceTags: complianceTagsOf(action) },
        });
        return detectionView(settled);
      });
    },
  };
}

export type DetectionsService = ReturnType<typeof createDetectionsService>;
