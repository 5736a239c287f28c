import type { Principal } from '../../kernel/auth/index.js';
import type { Severity } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { SETTINGS } from '../settings/index.js';
import {
  type Control,
  controlsOf,
  FRAMEWORK_NAMES,
  FRAMEWORKS,
  type Framework,
  isFramework,
  tagOf,
} from './compliance-catalogue.js';
import { type EvidenceSample, evidenceCounts, evidenceSamples, latestSettingChanges } from './compliance-store.js';
import type { CommandDeps } from './deps.js';
import { unresolvedView } from './incidents-service.js';
import { unresolvedBacklog } from './incidents-store.js';
import { readScope } from './scope.js';

// Compliance evidence (Part B 4.8): computed from one organization's audit chain and settings at the time of the
// request, never fixed text. A control is satisfied when at least one audit entry in the window evidences it and
// every setting it names holds its expected value.

export const SAMPLES_PER_CONTROL = 3;
const DAY_MS = 86_400_000;

export type Posture = 'strong' | 'needs_attention' | 'at_risk';

/** 422 for a missing or unknown framework, naming the known set (Part B 7). */
function frameworkOf(value: string | undefined): Framework {
  if (isFramework(value)) return value;
  throw new HttpError(
    422,
    `framework: ${value === undefined ? 'is required' : `unknown framework ${JSON.stringify(value)}`}; known: ${FRAMEWORKS.join(', ')}`,
    {},
    { known_frameworks: [...FRAMEWORKS] },
  );
}

const settingDefault = (key: string) => SETTINGS.find((definition) => definition.key === key)?.default;

const sampleView = (sample: EvidenceSample) => ({
  seq: sample.seq,
  entry_hash: sample.entry_hash,
  event_id: sample.event_id,
  action: sample.action,
  occurred_at: sample.occurred_at,
  actor: { id: sample.actor_id, type: sample.actor_type },
  outcome: sample.outcome,
  compliance_tags: sample.compliance_tags,
});

export const controlView = (control: Control) => ({
  id: control.id,
  tag: tagOf(control),
  title: control.title,
  evidence: {
    tag: tagOf(control),
    actions: [...control.actions],
    settings: control.settings.map((setting) => ({ ...setting })),
  },
});

export function createComplianceService(deps: CommandDeps) {
  const { clock, transactions } = deps;

  /** The organization a compliance read is about: the caller's own, or (platform operator) the one it names. */
  async function organizationOf(principal: Principal, requested: string | undefined): Promise<string> {
    const scope = await readScope(deps, principal, requested);
    return scope.tenantId ?? principal.tenantId;
  }

  async function evaluate(
    principal: Principal,
    query: { framework?: string | undefined; days?: number | undefined; tenant_id?: string | undefined },
    cap: number | null,
  ) {
    const framework = frameworkOf(query.framework);
    const tenantId = await organizationOf(principal, query.tenant_id);
    const days = query.days ?? 90;
    const now = clock.now();
    const since = new Date(now.getTime() - days * DAY_MS);
    const controls = controlsOf(framework);
    const rules = controls.map((control) => ({ tag: tagOf(control), actions: control.actions }));
    const settingKeys = [...new Set(controls.flatMap((control) => control.settings.map((setting) => setting.key)))];
    const { counts, samples, backlog } = await transactions.tenantRead(tenantId, async (tx) => ({
      counts: cap === null ? undefined : await evidenceCounts(tx, tenantId, since, rules),
      samples: cap === 0 ? [] : await evidenceSamples(tx, tenantId, since, rules, cap),
      backlog: await unresolvedBacklog(tx, tenantId),
    }));
    // Outside row-level security, on purpose: under the policy PostgreSQL cannot use `data->>'key'` (not leakproof)
    // as an index condition, so each probe would read every setting change the organization ever had. The
    // statement names its organization itself (the index's first column); a statement of its own sees the data as
    // the transaction's statements do, each of which takes its own snapshot (read committed).
    const settings = await transactions.systemRead((q) => latestSettingChanges(q, tenantId, settingKeys));
    const evaluated = controls.map((control) => {
      const tag = tagOf(control);
      const own = samples.filter((sample) => sample.tag === tag);
      const evidenceCount = counts ? (counts.get(tag) ?? 0) : own.length;
      const settingChecks = control.settings.map((setting) => {
        const change = settings.get(setting.key);
        const value = change ? change.value : settingDefault(setting.key);
        return {
          key: setting.key,
          expected: setting.expected,
          value: value ?? null,
          holds: value === setting.expected,
          why: setting.why,
          last_change: change
            ? { seq: change.seq, entry_hash: change.entry_hash, occurred_at: change.occurred_at }
            : null,
        };
      });
      const reasons = [
        ...(evidenceCount === 0 ? [`no audit entry evidences ${tag} in the last ${days} days`] : []),
        ...settingChecks
          .filter((check) => !check.holds)
          .map(
            (check) =>
              `setting ${check.key} is ${JSON.stringify(check.value)}, expected ${JSON.stringify(check.expected)}`,
          ),
      ];
      return {
        id: control.id,
        tag,
        title: control.title,
        satisfied: reasons.length === 0,
        evidence_count: evidenceCount,
        samples: own.map(sampleView),
        settings: settingChecks,
        gaps: reasons,
      };
    });
    const satisfied = evaluated.filter((control) => control.satisfied).length;
    return {
      head: {
        framework,
        framework_name: FRAMEWORK_NAMES[framework],
        tenant_id: tenantId,
        days,
        since: since.toISOString(),
        generated_at: now.toISOString(),
        controls_total: evaluated.length,
        readiness_pct: evaluated.length === 0 ? 0 : Math.round((satisfied / evaluated.length) * 1000) / 10,
      },
      evaluated,
      satisfied,
      backlog,
      now,
    };
  }

  return {
    /** `GET /command/compliance/controls`: the one catalogue, per framework. */
    controls(query: { framework?: string | undefined }) {
      const frameworks = query.framework === undefined ? FRAMEWORKS : [frameworkOf(query.framework)];
      return {
        frameworks: frameworks.map((framework) => ({
          framework,
          name: FRAMEWORK_NAMES[framework],
          controls: controlsOf(framework).map(controlView),
        })),
      };
    },

    /** `GET /command/compliance/evidence`: readiness, gaps and per-control samples with their audit hashes. */
    async evidence(
      principal: Principal,
      query: { framework?: string; days?: number; tenant_id?: string; export?: boolean },
    ) {
      const exported = query.export === true;
      const { head, evaluated, satisfied } = await evaluate(principal, query, exported ? null : SAMPLES_PER_CONTROL);
      return {
        ...head,
        export: exported,
        satisfied,
        gaps: evaluated
          .filter((control) => !control.satisfied)
          .map((control) => ({ control: control.id, tag: control.tag, title: control.title, reasons: control.gaps })),
        controls: evaluated,
      };
    },

    /** `GET /command/compliance/report`: readiness, satisfied versus gaps, open incidents and the posture. */
    async report(principal: Principal, query: { framework?: string; days?: number; tenant_id?: string }) {
      const { head, evaluated, satisfied, backlog, now } = await evaluate(principal, query, 0);
      const unresolvedOf = (severity: Severity) =>
        backlog.bySeverity.find((row) => row.severity === severity)?.count ?? 0;
      const posture: Posture =
        head.readiness_pct < 50 || unresolvedOf('critical') > 0
          ? 'at_risk'
          : head.readiness_pct < 90 || unresolvedOf('high') > 0
            ? 'needs_attention'
            : 'strong';
      return {
        ...head,
        satisfied_count: satisfied,
        gap_count: evaluated.length - satisfied,
        satisfied: evaluated.filter((control) => control.satisfied).map((control) => control.id),
        gaps: evaluated
          .filter((control) => !control.satisfied)
          .map((control) => ({ control: control.id, tag: control.tag, title: control.title, reasons: control.gaps })),
        open_incidents: unresolvedView(backlog, now),
        posture,
      };
    },
  };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;
