import { type SQL, sql } from 'drizzle-orm';
import { type Queryable, rows } from '../../kernel/db/index.js';
import { auditLog } from '../../kernel/events/schema.js';

// Evidence queries over the kernel's hash-chained audit log (no second log): one organization's entries that
// evidence each control, and the settings changes recorded there.

/** What evidences one control: entries carrying its tag, or entries of one of its actions. */
export interface EvidenceRule {
  tag: string;
  actions: readonly string[];
}

export interface EvidenceSample {
  tag: string;
  seq: number;
  entry_hash: string;
  event_id: string;
  action: string;
  occurred_at: string;
  actor_id: string;
  actor_type: string;
  outcome: string;
  compliance_tags: string[];
}

const textArray = (values: readonly string[]): SQL =>
  values.length === 0
    ? sql`array[]::text[]`
    : sql`array[${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}]::text[]`;

/** The controls as a derived table `c(tag, actions)`. */
const controlsTable = (rules: readonly EvidenceRule[]): SQL =>
  sql`(values ${sql.join(
    rules.map((rule) => sql`(${rule.tag}::text, ${textArray(rule.actions)})`),
    sql`, `,
  )}) as c(tag, actions)`;

const evidences = sql`(a.compliance_tags @> jsonb_build_array(c.tag) or a.action = any(c.actions))`;

/** How many of the organization's entries since `since` evidence each control. */
export async function evidenceCounts(
  q: Queryable,
  tenantId: string,
  since: Date,
  rules: readonly EvidenceRule[],
): Promise<Map<string, number>> {
  const found = await rows<{ tag: string; evidence: number }>(
    q,
    sql`select c.tag, count(a.seq)::int as evidence
        from ${controlsTable(rules)}
        left join ${auditLog} a on a.tenant_id = ${tenantId} and a.occurred_at >= ${since} and ${evidences}
        group by c.tag`,
  );
  return new Map(found.map((row) => [row.tag, Number(row.evidence)]));
}

/** The newest entries evidencing each control (at most `cap` per control; all of them when `cap` is null). */
export async function evidenceSamples(
  q: Queryable,
  tenantId: string,
  since: Date,
  rules: readonly EvidenceRule[],
  cap: number | null,
): Promise<EvidenceSample[]> {
  const found = await rows<EvidenceSample & { occurred_at: string | Date; seq: string | number }>(
    q,
    sql`select c.tag, s.seq, s.entry_hash, s.event_id, s.action, s.occurred_at, s.actor_id, s.actor_type, s.outcome,
               s.compliance_tags
        from ${controlsTable(rules)}
        cross join lateral (
          select a.seq, a.entry_hash, a.event_id, a.action, a.occurred_at, a.actor_id, a.actor_type, a.outcome,
                 a.compliance_tags
          from ${auditLog} a
          where a.tenant_id = ${tenantId} and a.occurred_at >= ${since} and ${evidences}
          order by a.seq desc
          ${cap === null ? sql`` : sql`limit ${cap}`}
        ) s
        order by c.tag, s.seq desc`,
  );
  return found.map((row) => ({
    ...row,
    seq: Number(row.seq),
    occurred_at: new Date(row.occurred_at).toISOString(),
  }));
}

export interface SettingChangeEntry {
  key: string;
  value: unknown;
  seq: number;
  entry_hash: string;
  occurred_at: string;
}

/** The latest recorded change of each of `keys` in the organization, whenever it was (the value it has now). */
export async function latestSettingChanges(
  q: Queryable,
  tenantId: string,
  keys: readonly string[],
): Promise<Map<string, SettingChangeEntry>> {
  if (keys.length === 0) return new Map();
  const found = await rows<{
    key: string;
    value: unknown;
    seq: string | number;
    entry_hash: string;
    occurred_at: string;
  }>(
    q,
    // One index probe per key (audit_setting_changes, migration 0026): the cost follows the keys asked, not how
    // many times each setting changed. Only outside row-level security: under a policy the non-leakproof
    // `data->>'key'` is no index condition, and every change of the organization is read (the service's caller).
    sql`select k.key, s.value, s.seq, s.entry_hash, s.occurred_at
        from unnest(${textArray(keys)}) as k(key)
        cross join lateral (
          select a.data->'new_value' as value, a.seq, a.entry_hash, a.occurred_at
          from ${auditLog} a
          where a.tenant_id = ${tenantId} and a.action = 'setting.changed' and a.data->>'key' = k.key
          order by a.seq desc
          limit 1
        ) s`,
  );
  return new Map(
    found.map((row) => [
      row.key,
      { ...row, seq: Number(row.seq), occurred_at: new Date(row.occurred_at).toISOString() },
    ]),
  );
}
