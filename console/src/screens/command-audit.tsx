import { useState } from 'react';
import { type Answer, type ApiError, api, useApi } from '../api';
import { useQueryState, useRoute } from '../router';
import { useSession } from '../session';
import { BarChart, DataTable, ErrorBanner, FilterSelect, Loading, Page, Section } from '../ui';
import { options, Pill, QueryText, queryOf, SEVERITIES, when } from '../ui/command-kit';
import type { ScreenDef } from './types';

/** GET /command/audit: a page of the hash-chained audit log, newest first, and the cursor of the older entries. */
type AuditPage = Answer<'/command/audit'>;
type AuditEntry = AuditPage['entries'][number];
/** GET /command/audit/verify: the whole chain recomputed from genesis. */
type Verification = Answer<'/command/audit/verify'>;

/** The whole-chain check: the platform operator's alone (the API refuses anyone else with 403). */
function VerifyChain() {
  const [result, setResult] = useState<Verification | undefined>(undefined);
  const [error, setError] = useState<ApiError | Error | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <Section title="Chain verification">
      <p>Recomputes every entry's hash and link from genesis, across every organization.</p>
      <button
        type="button"
        className="button primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            setResult(await api<Verification>('GET', '/command/audit/verify'));
          } catch (reason) {
            setError(reason as Error);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? 'Verifying…' : 'Verify the chain'}
      </button>
      <ErrorBanner error={error} />
      {result && (
        <dl className="facts cc-result" data-testid="verification">
          <div className="fact">
            <dt>Verified</dt>
            <dd data-testid="verified">{result.verified ? 'Yes: the chain is intact' : 'No: the chain is broken'}</dd>
          </div>
          <div className="fact">
            <dt>Intact entries</dt>
            <dd data-testid="verified-entries">{result.entries}</dd>
          </div>
          <div className="fact">
            <dt>First broken entry</dt>
            <dd data-testid="broken-seq">{result.broken_seq ?? 'None'}</dd>
          </div>
        </dl>
      )}
    </Section>
  );
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;

function Audit() {
  const session = useSession();
  const { query } = useRoute();
  const [cursor, setCursor] = useQueryState('cursor');
  const filters = queryOf(query, ['action', 'actor_id', 'tenant_id']);
  const page = useApi<AuditPage>('/command/audit', { ...filters, cursor, limit: 50 });
  return (
    <Page title="Audit log" description="The hash-chained audit log: every entry with the controls it evidences.">
      {session.isPlatformOperator && <VerifyChain />}
      <Section title="Entries">
        <div className="cc-filters">
          <QueryText param="action" label="Action" placeholder="member.role_changed" />
          <QueryText param="actor_id" label="Actor id" />
          {session.isPlatformOperator && <QueryText param="tenant_id" label="Organization id" />}
        </div>
        <DataTable<AuditEntry>
          caption="Audit entries"
          rows={page.data?.entries}
          loading={page.loading}
          error={page.error}
          rowKey={(e) => String(e.seq)}
          server={{ hasMore: false }}
          empty={Object.keys(filters).length ? 'No entry matches these filters.' : 'No entry yet.'}
          columns={[
            { key: 'seq', header: 'Seq', numeric: true, render: (e) => e.seq },
            { key: 'time', header: 'Time', render: (e) => when(e.occurred_at) },
            { key: 'action', header: 'Action', render: (e) => <code>{e.action}</code> },
            {
              key: 'actor',
              header: 'Actor',
              render: (e) => (
                <>
                  {e.actor_type} <span className="cc-mono">{e.actor_id}</span>
                </>
              ),
            },
            { key: 'outcome', header: 'Outcome', render: (e) => e.outcome },
            {
              key: 'tags',
              header: 'Compliance tags',
              render: (e) => (
                <span className="tags">
                  {e.compliance_tags.map((tag) => (
                    <span key={tag} className="tag">
                      {tag}
                    </span>
                  ))}
                </span>
              ),
            },
            {
              key: 'hash',
              header: 'Entry hash',
              render: (e) => (
                <code className="cc-mono" title={e.entry_hash}>
                  {short(e.entry_hash)}
                </code>
              ),
            },
          ]}
        />
        {(cursor || page.data?.next_cursor) && (
          <nav className="pager" aria-label="Older entries">
            {cursor && (
              <button type="button" onClick={() => setCursor(undefined)}>
                Newest entries
              </button>
            )}
            {page.data?.next_cursor && (
              <button type="button" onClick={() => setCursor(page.data?.next_cursor ?? undefined)}>
                Older entries
              </button>
            )}
          </nav>
        )}
      </Section>
    </Page>
  );
}

/** GET /command/compliance/report: a framework's readiness, its gaps and the posture. */
type Report = Answer<'/command/compliance/report'>;
/** GET /command/compliance/evidence: each control of a framework with the audit entries that evidence it. */
type Evidence = Answer<'/command/compliance/evidence'>;

const FRAMEWORKS = [
  { value: '', label: 'SOC 2' },
  { value: 'iso27001', label: 'ISO/IEC 27001:2022' },
  { value: 'gdpr', label: 'GDPR' },
];
const POSTURE: Record<string, string> = {
  strong: 'Strong',
  needs_attention: 'Needs attention',
  at_risk: 'At risk',
};

function Compliance() {
  const { query } = useRoute();
  const framework = query.get('framework') || 'soc2';
  const scope = { framework, ...queryOf(query, ['days']) };
  const report = useApi<Report>('/command/compliance/report', scope);
  const evidence = useApi<Evidence>('/command/compliance/evidence', scope);
  const r = report.data;
  return (
    <Page title="Compliance" description="Readiness per framework, from the audit entries that evidence each control.">
      <div className="cc-filters">
        <FilterSelect param="framework" label="Framework" options={FRAMEWORKS} />
        <FilterSelect
          param="days"
          label="Window"
          options={[
            { value: '', label: 'Last 90 days' },
            { value: '30', label: 'Last 30 days' },
            { value: '365', label: 'Last year' },
          ]}
        />
      </div>
      <ErrorBanner error={report.error} />
      {!r && !report.error && <Loading />}
      {r && (
        <Section title={`${r.framework_name}: readiness`}>
          <dl className="facts">
            <div className="fact">
              <dt>Readiness</dt>
              <dd data-testid="readiness">{r.readiness_pct}%</dd>
            </div>
            <div className="fact">
              <dt>Posture</dt>
              <dd data-testid="posture">{POSTURE[r.posture] ?? r.posture}</dd>
            </div>
            <div className="fact">
              <dt>Controls satisfied</dt>
              <dd>
                {r.satisfied_count} of {r.controls_total}
              </dd>
            </div>
            <div className="fact">
              <dt>Unresolved incidents</dt>
              <dd>{r.open_incidents.count}</dd>
            </div>
          </dl>
          {r.gaps.length > 0 && (
            <>
              <h3>Gaps</h3>
              <ul>
                {r.gaps.map((gap) => (
                  <li key={gap.tag}>
                    <strong>{gap.control}</strong> {gap.title}: {gap.reasons.join('; ')}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Section>
      )}
      <Section title="Controls and evidence">
        <DataTable<Evidence['controls'][number]>
          caption="Controls and their evidence"
          rows={evidence.data?.controls}
          loading={evidence.loading}
          error={evidence.error}
          rowKey={(c) => c.tag}
          pageSize={50}
          columns={[
            { key: 'id', header: 'Control', render: (c) => <code>{c.id}</code> },
            { key: 'title', header: 'Title', render: (c) => c.title },
            { key: 'satisfied', header: 'Satisfied', render: (c) => (c.satisfied ? 'Yes' : 'No') },
            { key: 'count', header: 'Evidence', numeric: true, render: (c) => c.evidence_count },
            {
              key: 'newest',
              header: 'Newest evidence',
              render: (c) =>
                c.samples[0] ? (
                  <>
                    #{c.samples[0].seq} <code>{c.samples[0].action}</code>{' '}
                    <code className="cc-mono" title={c.samples[0].entry_hash}>
                      {short(c.samples[0].entry_hash)}
                    </code>
                  </>
                ) : (
                  c.gaps.join('; ')
                ),
            },
          ]}
        />
      </Section>
    </Page>
  );
}

/** GET /command/findings: the analysis of recent events, or the detections still open. */
type FindingsList = Answer<'/command/findings'>;
type Finding = FindingsList['findings'][number];

function Findings() {
  const { query } = useRoute();
  const filters = queryOf(query, ['severity', 'source', 'tenant_id']);
  const list = useApi<FindingsList>('/command/findings', { ...filters, limit: 500 });
  const bySeverity = SEVERITIES.map((s) => ({
    label: s,
    value: (list.data?.findings ?? []).filter((f) => f.severity === s).length,
  })).reverse();
  return (
    <Page title="Findings" description="The service's own analysis of the last 7 days, or the detections still open.">
      <Section title="Findings">
        <div className="cc-filters">
          <FilterSelect
            param="source"
            label="Source"
            options={[
              { value: '', label: 'Analysis of the events' },
              { value: 'detection', label: 'Open or acknowledged detections' },
            ]}
          />
          <FilterSelect param="severity" label="Severity" options={options(SEVERITIES, 'Every severity')} />
        </div>
        <DataTable<Finding>
          caption="Findings"
          rows={list.data?.findings}
          loading={list.loading}
          error={list.error}
          rowKey={(f) => f.id}
          empty="Nothing adverse found."
          columns={[
            { key: 'severity', header: 'Severity', render: (f) => <Pill value={f.severity} /> },
            { key: 'title', header: 'Finding', render: (f) => f.title },
            { key: 'count', header: 'Count', numeric: true, render: (f) => f.count },
            { key: 'last', header: 'Last seen', render: (f) => when(f.last_seen) },
          ]}
        />
      </Section>
      {list.data && list.data.findings.length > 0 && (
        <Section title="By severity">
          <BarChart title="Findings by severity" unit="findings" data={bySeverity} />
        </Section>
      )}
    </Page>
  );
}

const read = (s: { can(code: string): boolean }) => s.can('command:read');

export const auditScreens: ScreenDef[] = [
  { path: '/command/findings', title: 'Findings', group: 'Command Center', visible: read, component: Findings },
  { path: '/command/audit', title: 'Audit log', group: 'Command Center', visible: read, component: Audit },
  { path: '/command/compliance', title: 'Compliance', group: 'Command Center', visible: read, component: Compliance },
];
