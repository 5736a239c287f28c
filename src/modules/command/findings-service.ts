// Findings (Part B 4.8 `GET /command/findings`): what the service's analyses conclude from the records, computed on
// every read and never stored (docs/decisions.md, "Command Center findings"). Two sources:
// - `analyst` (the default): the service's own analysis of the event history. Each finding is one principal's
//   adverse activity of one kind over the last ANALYST_WINDOW_DAYS days: the events of one actor and one action
//   that failed, were denied, or were at or above warn; its severity is the highest of those events.
// - `detection`: every detection rule's groups still open or acknowledged, one finding per group.
import { createHash } from 'node:crypto';
import type { Principal } from '../../kernel/auth/principal.js';
import type { Outcome, Severity } from '../../kernel/events/index.js';
import type { CommandDeps } from './deps.js';
import { adverseActivity, type DetectionRow, unresolvedDetections } from './findings-store.js';
import { readScope, readWithin } from './scope.js';

export const FINDING_SOURCES = ['analyst', 'detection'] as const;
export type FindingSource = (typeof FINDING_SOURCES)[number];
/** The analyst reads this many days of history, like the by-actor default. */
export const ANALYST_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface FindingsQuery {
  severity?: Severity;
  source: FindingSource;
  tenant_id?: string;
  limit: number;
}

export interface Finding {
  id: string;
  source: FindingSource;
  tenant_id: string | null;
  severity: Severity;
  title: string;
  /** The event action (analyst) or the detection rule (detection). */
  signal: string;
  /** Whom or what it concerns: `<actor type>:<actor id>` (analyst), the detection's group key (detection). */
  subject: string;
  count: number;
  first_seen: string;
  last_seen: string;
  /** The newest of its events (analyst); empty for a detection. */
  event_ids: string[];
  by_outcome: Record<Outcome, number> | null;
  detection_id: string | null;
  status: 'open' | 'acknowledged' | null;
}

const times = (count: number) => (count === 1 ? 'once' : `${count} times`);

/** The same activity is the same finding on every read: its id is derived from what groups it. */
const analystId = (parts: Array<string | null>) =>
  `analyst-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32)}`;

function fromDetection(row: DetectionRow): Finding {
  return {
    id: row.id,
    source: 'detection',
    tenant_id: row.tenantId,
    severity: row.severity,
    title: `Detection ${row.ruleId} on ${row.groupKey}, seen ${times(row.count)}`,
    signal: row.ruleId,
    subject: row.groupKey,
    count: row.count,
    first_seen: row.firstSeen.toISOString(),
    last_seen: row.lastSeen.toISOString(),
    event_ids: [],
    by_outcome: null,
    detection_id: row.id,
    status: row.status === 'resolved' ? null : row.status,
  };
}

export function createFindingsReader(deps: CommandDeps) {
  return {
    async list(principal: Principal, query: FindingsQuery) {
      const scope = await readScope(deps, principal, query.tenant_id);
      if (query.source === 'detection') {
        const found = await readWithin(deps, scope, (tx) =>
          unresolvedDetections(tx, { tenantId: scope.tenantId, severity: query.severity, limit: query.limit }),
        );
        return { source: query.source, window_days: null, findings: found.map(fromDetection) };
      }
      const since = new Date(deps.clock.now().getTime() - ANALYST_WINDOW_DAYS * DAY_MS);
      const found = await readWithin(deps, scope, (tx) =>
        adverseActivity(tx, { tenantId: scope.tenantId, since, severity: query.severity, limit: query.limit }),
      );
      const findings = found.map(
        (group): Finding => ({
          id: analystId([group.tenant_id, group.actor_type, group.actor_id, group.action]),
          source: 'analyst',
          tenant_id: group.tenant_id,
          severity: group.severity,
          title: `${group.action} by ${group.actor_type} ${group.actor_id}: ${times(group.count)} (${outcomesOf(group.by_outcome)})`,
          signal: group.action,
          subject: `${group.actor_type}:${group.actor_id}`,
          count: group.count,
          first_seen: group.first_seen.toISOString(),
          last_seen: group.last_seen.toISOString(),
          event_ids: group.event_ids,
          by_outcome: group.by_outcome,
          detection_id: null,
          status: null,
        }),
      );
      return { source: query.source, window_days: ANALYST_WINDOW_DAYS, findings };
    },
  };
}

const outcomesOf = (byOutcome: Record<Outcome, number>) =>
  (Object.entries(byOutcome) as Array<[Outcome, number]>)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${count} ${outcome}`)
    .join(', ');
