import type { Principal } from '../../kernel/auth/index.js';
import type { Tx } from '../../kernel/db/index.js';
import type { Severity } from '../../kernel/events/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { complianceTagsOf } from './compliance-catalogue.js';
import type { CommandDeps } from './deps.js';
import { operableScope, operateIn, SEVERITIES } from './detections-service.js';
import { type OperableScope, operableDetections } from './detections-store.js';
import {
  type IncidentRow,
  type IncidentStatus,
  incidentCounts,
  insertIncident,
  isActiveWorkforceMember,
  listIncidents,
  lockIncident,
  type UnresolvedBacklog,
  unresolvedBacklog,
  updateIncident,
} from './incidents-store.js';
import { readScope, readWithin } from './scope.js';

// Incidents (Part B 2.7, 4.8): opened by an operator in their own organization over its detections, worked through
// documented statuses, every change an event with its audit entry.

export const INCIDENT_STATUSES: readonly IncidentStatus[] = [
  'open',
  'investigating',
  'contained',
  'resolved',
  'closed',
];

/**
 * The allowed status changes (Part B 3 leaves them open; docs/command-center.md): forward along the response, a
 * step back to `investigating` when containment or a resolution does not hold, and `closed` is final.
 */
export const TRANSITIONS: Record<IncidentStatus, readonly IncidentStatus[]> = {
  open: ['investigating', 'contained', 'resolved', 'closed'],
  investigating: ['contained', 'resolved', 'closed'],
  contained: ['investigating', 'resolved', 'closed'],
  resolved: ['investigating', 'closed'],
  closed: [],
};

export const MAX_DETECTIONS_PER_INCIDENT = 100;
const DAY_MS = 86_400_000;

export interface IncidentView {
  id: string;
  tenant_id: string;
  title: string;
  severity: Severity;
  description: string | null;
  detection_ids: string[];
  assignee: string | null;
  status: IncidentStatus;
  containment: string | null;
  remediation: string | null;
  root_cause: string | null;
  opened_by: { id: string; type: string };
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  closed_at: string | null;
}

const incidentView = (row: IncidentRow): IncidentView => ({
  id: row.id,
  tenant_id: row.tenantId,
  title: row.title,
  severity: row.severity,
  description: row.description,
  detection_ids: row.detectionIds,
  assignee: row.assigneeId,
  status: row.status,
  containment: row.containment,
  remediation: row.remediation,
  root_cause: row.rootCause,
  opened_by: { id: row.openedById, type: row.openedByType },
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  resolved_at: row.resolvedAt?.toISOString() ?? null,
  closed_at: row.closedAt?.toISOString() ?? null,
});

export interface OpenIncidentInput {
  title: string;
  severity: Severity;
  description?: string | null | undefined;
  detection_ids?: string[] | undefined;
  assignee?: string | null | undefined;
}

export interface IncidentChangeInput {
  status?: IncidentStatus | undefined;
  assignee?: string | null | undefined;
  containment?: string | null | undefined;
  remediation?: string | null | undefined;
  root_cause?: string | null | undefined;
}

/** The fields a PATCH may change, body name to row name. */
const CHANGEABLE = [
  ['status', 'status'],
  ['assignee', 'assigneeId'],
  ['containment', 'containment'],
  ['remediation', 'remediation'],
  ['root_cause', 'rootCause'],
] as const;

/** 422 naming the first detection id that is malformed, then every one the caller's organization does not hold. */
async function linkedDetections(tx: Tx, scope: OperableScope, given: string[]): Promise<string[]> {
  const ids = [...new Set(given)];
  const malformed = ids.find((id) => !isUuid(id));
  if (malformed !== undefined) {
    throw unprocessable(`detection_ids: ${JSON.stringify(malformed)} is not a detection id`);
  }
  const found = new Set((await operableDetections(tx, scope, ids)).map((row) => row.id));
  const invisible = ids.filter((id) => !found.has(id));
  if (invisible.length > 0) {
    throw unprocessable(`detection_ids: no such detection in your organization: ${invisible.join(', ')}`);
  }
  return ids;
}

async function checkAssignee(tx: Tx, tenantId: string, assignee: string | null | undefined): Promise<void> {
  if (assignee === null || assignee === undefined) return;
  if (!isUuid(assignee) || !(await isActiveWorkforceMember(tx, tenantId, assignee))) {
    throw unprocessable('assignee: not an active member of this organization');
  }
}

/** The unresolved backlog as answered: its size, by severity, and the age of its oldest incident at `now`. */
export function unresolvedView(backlog: UnresolvedBacklog, now: Date) {
  return {
    count: backlog.count,
    by_severity: SEVERITIES.map((severity) => ({
      severity,
      count: backlog.bySeverity.find((row) => row.severity === severity)?.count ?? 0,
    })),
    oldest_opened_at: backlog.oldest?.toISOString() ?? null,
    oldest_age_seconds: backlog.oldest ? Math.floor((now.getTime() - backlog.oldest.getTime()) / 1000) : null,
  };
}

export function createIncidentsService(deps: CommandDeps) {
  const { events, clock } = deps;

  async function record(tx: Tx, principal: Principal, row: IncidentRow, action: string, data: object) {
    await events.emit(tx, {
      tenantId: row.tenantId,
      actor: principal.actor,
      category: 'security',
      action,
      severity: action === 'incident.opened' ? row.severity : 'info',
      data: { incident_id: row.id, ...data },
      audit: { complianceTags: complianceTagsOf(action) },
    });
  }

  return {
    /** `POST /command/incidents`: opened in the caller's own organization, over detections it may act on. */
    async open(principal: Principal, input: OpenIncidentInput): Promise<IncidentView> {
      const scope = await operableScope(deps, principal);
      return operateIn(deps, scope, async (tx) => {
        const detectionIds = await linkedDetections(tx, scope, input.detection_ids ?? []);
        await checkAssignee(tx, principal.tenantId, input.assignee);
        const now = clock.now();
        const row = await insertIncident(tx, {
          id: newId(),
          tenantId: principal.tenantId,
          title: input.title,
          severity: input.severity,
          description: input.description ?? null,
          detectionIds,
          assigneeId: input.assignee ?? null,
          status: 'open',
          openedById: principal.actor.id,
          openedByType: principal.actor.type,
          createdAt: now,
          updatedAt: now,
        });
        await record(tx, principal, row, 'incident.opened', {
          title: row.title,
          severity: row.severity,
          status: row.status,
          detection_ids: detectionIds,
          assignee: row.assigneeId,
        });
        return incidentView(row);
      });
    },

    /** `GET /command/incidents`: newest first (created, then id); the platform operator reads every organization. */
    async list(
      principal: Principal,
      query: {
        status?: IncidentStatus | undefined;
        severity?: Severity | undefined;
        tenant_id?: string | undefined;
        limit?: number | undefined;
      },
    ): Promise<{ incidents: IncidentView[] }> {
      const scope = await readScope(deps, principal, query.tenant_id);
      const found = await readWithin(deps, scope, (tx) =>
        listIncidents(tx, {
          tenantId: scope.tenantId,
          status: query.status,
          severity: query.severity,
          limit: query.limit ?? 100,
        }),
      );
      return { incidents: found.map(incidentView) };
    },

    /**
     * `PATCH /command/incidents/{id}`: changes what was sent, under a lock on the incident. A status change outside
     * TRANSITIONS is 409; unknown and another organization's incident are the same 404. A change that changes
     * nothing records nothing.
     */
    async change(principal: Principal, id: string, input: IncidentChangeInput): Promise<IncidentView> {
      if (!isUuid(id)) throw notFound('Incident not found');
      const { tenantId } = principal;
      return deps.transactions.tenant(tenantId, async (tx) => {
        const current = await lockIncident(tx, tenantId, id);
        if (!current) throw notFound('Incident not found');
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        const set: Record<string, unknown> = {};
        for (const [field, column] of CHANGEABLE) {
          const next = input[field];
          if (next === undefined || next === current[column]) continue;
          changes[field] = { from: current[column], to: next };
          set[column] = next;
        }
        if (changes.status) {
          const to = input.status!;
          if (!TRANSITIONS[current.status].includes(to)) {
            const allowed = TRANSITIONS[current.status];
            throw conflict(
              `Incident is ${current.status}: it cannot become ${to}` +
                (allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (closed is final)'),
            );
          }
        }
        if (changes.assignee) await checkAssignee(tx, tenantId, input.assignee);
        if (Object.keys(changes).length === 0) return incidentView(current);
        const now = clock.now();
        if (changes.status) {
          if (input.status === 'resolved') set.resolvedAt = now;
          if (input.status === 'closed') set.closedAt = now;
          if (input.status === 'investigating') set.resolvedAt = null;
        }
        const row = await updateIncident(tx, tenantId, id, { ...set, updatedAt: now });
        await record(tx, principal, row, 'incident.updated', { status: row.status, changes });
        return incidentView(row);
      });
    },

    /**
     * `GET /command/incidents/summary`: incidents opened in the last `days` days by status and severity, and the
     * `unresolved` backlog (open, investigating, contained) whatever its age.
     */
    async summary(principal: Principal, query: { days?: number | undefined; tenant_id?: string | undefined }) {
      const scope = await readScope(deps, principal, query.tenant_id);
      const days = query.days ?? 90;
      const now = clock.now();
      const since = new Date(now.getTime() - days * DAY_MS);
      const [counts, backlog] = await readWithin(
        deps,
        scope,
        async (tx) =>
          [await incidentCounts(tx, scope.tenantId, since), await unresolvedBacklog(tx, scope.tenantId)] as const,
      );
      const sum = (match: (row: (typeof counts)[number]) => boolean) =>
        counts.filter(match).reduce((total, row) => total + row.count, 0);
      return {
        tenant_id: scope.tenantId,
        days,
        since: since.toISOString(),
        total: sum(() => true),
        by_status: INCIDENT_STATUSES.map((status) => ({ status, count: sum((row) => row.status === status) })),
        by_severity: SEVERITIES.map((severity) => ({ severity, count: sum((row) => row.severity === severity) })),
        unresolved: unresolvedView(backlog, now),
      };
    },
  };
}

export type IncidentsService = ReturnType<typeof createIncidentsService>;
