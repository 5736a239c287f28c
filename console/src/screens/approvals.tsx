import { type Answer, useApi } from '../api';
import { Link, useQueryState, useRoute } from '../router';
import { useSession } from '../session';
import { BarChart, DataTable, EmptyState, ErrorBanner, FilterSelect, Loading, Page, Section } from '../ui';
import { type Approval, StateTag, useNames, when } from '../ui/agents-kit';
import { ApprovalDetailScreen } from './approvals-detail';
import type { ScreenDef } from './types';

/** GET /approvals: one page of the queue. */
type Queue = Answer<'/approvals'>;

/** One line saying what an ask is about: the parked call's method and route, or the content's title. */
export function askSummary(ask: Approval): string {
  const r = ask.resource ?? {};
  if (ask.resource_type === 'action' && typeof r.method === 'string' && typeof r.route === 'string') {
    return `${r.method} ${r.route.replace(/^\/api\/v1/, '')}`;
  }
  if (ask.resource_type === 'content') {
    const title = typeof r.title === 'string' && r.title ? r.title : `${ask.fingerprint.slice(0, 12)}…`;
    return `Content: ${title}`;
  }
  return ask.resource_type;
}

// An ask lives 24 hours: the buckets cover that span.
const AGE_BUCKETS: { label: string; upTo: number }[] = [
  { label: 'under 1 h', upTo: 1 },
  { label: '1-4 h', upTo: 4 },
  { label: '4-12 h', upTo: 12 },
  { label: '12-24 h', upTo: Number.POSITIVE_INFINITY },
];

/** Pending asks by how long they have waited (the browser's clock against `created_at`). */
export function ageBuckets(asks: Approval[], now: number) {
  const counts = AGE_BUCKETS.map((bucket) => ({ label: bucket.label, value: 0 }));
  for (const ask of asks) {
    const hours = Math.max(0, now - Date.parse(ask.created_at)) / 3_600_000;
    const index = AGE_BUCKETS.findIndex((bucket) => hours < bucket.upTo);
    counts[index === -1 ? counts.length - 1 : index]!.value += 1;
  }
  return counts;
}

function QueueAge() {
  const pending = useApi<Queue>('/approvals', { status: 'pending', limit: 500 });
  if (pending.loading && !pending.data) return <Loading />;
  if (pending.error) return null;
  const asks = pending.data?.approvals ?? [];
  return (
    <Section title="Queue age">
      <p data-testid="pending-count">
        {asks.length === 0
          ? 'Nothing is waiting for a decision.'
          : `${asks.length}${pending.data?.next_cursor ? '+' : ''} pending ${asks.length === 1 ? 'ask' : 'asks'}; the oldest was asked ${when(asks[asks.length - 1]?.created_at)}.`}
      </p>
      <BarChart title="Pending asks by age" unit="asks" data={ageBuckets(asks, Date.now())} />
    </Section>
  );
}

const STATUS_OPTIONS = [
  { value: '', label: 'Pending' },
  { value: 'approved', label: 'Approved, not yet used' },
  { value: 'consumed', label: 'Approved and used' },
  { value: 'denied', label: 'Denied' },
  { value: 'expired', label: 'Expired' },
  { value: 'all', label: 'Every ask (history)' },
];

function ApprovalQueue() {
  const session = useSession();
  const names = useNames();
  const [status] = useQueryState('status');
  const [kind] = useQueryState('type');
  const [agentId] = useQueryState('agent');
  const [cursor, setCursor] = useQueryState('cursor');
  const agents = useApi<Answer<'/agents'>>(session.can('agents:read') ? '/agents' : null, { limit: 500 });
  const queue = useApi<Queue>('/approvals', {
    status: status === 'all' ? undefined : status || 'pending',
    resource_type: kind || undefined,
    agent_id: agentId || undefined,
    cursor: cursor || undefined,
    limit: 100,
  });

  // While AGENT_APPROVALS_ENABLED is off every /approvals route is 404, as if it did not exist.
  if (queue.error?.status === 404) {
    return (
      <Page title="Approvals">
        <EmptyState title="Approvals are not enabled on this deployment.">
          <p>
            Its operator turns them on with AGENT_APPROVALS_ENABLED; until then supervised agents' changes are refused.
          </p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page
      title="Approvals"
      description="Agents' parked actions and content waiting for a person: each approval covers exactly what was asked, once."
    >
      <Section title="Asks">
        <div className="filters">
          <FilterSelect param="status" label="Status" options={STATUS_OPTIONS} />
          <FilterSelect
            param="type"
            label="Kind"
            options={[
              { value: '', label: 'Every kind' },
              { value: 'action', label: 'Parked actions' },
              { value: 'content', label: 'Content reviews' },
            ]}
          />
          {agents.data && (
            <FilterSelect
              param="agent"
              label="Agent"
              options={[
                { value: '', label: 'Every agent' },
                ...agents.data.agents.map((agent) => ({ value: agent.agent_id, label: agent.name })),
              ]}
            />
          )}
        </div>
        <ErrorBanner error={queue.error} />
        {!queue.error && (
          <DataTable<Approval>
            caption="Approval asks"
            rows={queue.data?.approvals}
            loading={queue.loading}
            rowKey={(row) => row.id}
            empty={
              status && status !== 'pending' ? 'No ask matches these filters.' : 'No ask is waiting for a decision.'
            }
            columns={[
              {
                key: 'what',
                header: 'Ask',
                render: (row) => <Link to={`/approvals/${row.id}`}>{askSummary(row)}</Link>,
              },
              { key: 'agent', header: 'Agent', render: (row) => names.agent(row.agent_id) },
              { key: 'task', header: 'Task', render: (row) => row.justification ?? '—' },
              {
                key: 'needs',
                header: 'Needs',
                render: (row) => <code className="code-inline">{row.required_permission ?? '—'}</code>,
              },
              {
                key: 'approvals',
                header: 'Approvals',
                numeric: true,
                render: (row) => `${row.approvals_recorded} of ${row.required_approvals}`,
              },
              { key: 'status', header: 'Status', render: (row) => <StateTag value={row.status} /> },
              { key: 'asked', header: 'Asked', render: (row) => when(row.created_at) },
              { key: 'expires', header: 'Expires', render: (row) => when(row.expires_at) },
            ]}
          />
        )}
        {(cursor || queue.data?.next_cursor) && (
          <nav className="pager" aria-label="More asks">
            {cursor && (
              <button type="button" onClick={() => setCursor(undefined)}>
                Newest asks
              </button>
            )}
            {queue.data?.next_cursor && (
              <button type="button" onClick={() => setCursor(queue.data?.next_cursor ?? undefined)}>
                Older asks
              </button>
            )}
          </nav>
        )}
      </Section>
      <QueueAge />
    </Page>
  );
}

function Approvals() {
  const { path } = useRoute();
  const id = path.replace(/^\/approvals\/?/, '');
  return id ? <ApprovalDetailScreen approvalId={decodeURIComponent(id)} /> : <ApprovalQueue />;
}

export const screens: ScreenDef[] = [
  {
    path: '/approvals/*',
    title: 'Approvals',
    group: 'Agents',
    visible: (s) => s.can('agents:approvals:read'),
    component: Approvals,
  },
];
