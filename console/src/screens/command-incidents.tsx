import { useState } from 'react';
import { type Answer, api, useApi } from '../api';
import { Link, useRoute } from '../router';
import { useSession } from '../session';
import {
  BarChart,
  DataTable,
  EmptyState,
  ErrorBanner,
  Field,
  FilterSelect,
  Form,
  type FormValues,
  Loading,
  Notice,
  Page,
  Section,
} from '../ui';
import {
  type Detection,
  INCIDENT_MOVES,
  type Incident,
  type IncidentStatus,
  options,
  Pill,
  queryOf,
  SEVERITIES,
  when,
} from '../ui/command-kit';
import { AssigneeField } from './command-detections';
import type { ScreenDef } from './types';

/** GET /command/incidents/summary: incidents opened in the last days, and the whole unresolved backlog. */
type Summary = Answer<'/command/incidents/summary'>;

const STATUSES: IncidentStatus[] = ['open', 'investigating', 'contained', 'resolved', 'closed'];

const age = (seconds: number) =>
  seconds >= 86_400
    ? `${Math.floor(seconds / 86_400)} d`
    : seconds >= 3600
      ? `${Math.floor(seconds / 3600)} h`
      : `${Math.floor(seconds / 60)} min`;

function IncidentSummary() {
  const summary = useApi<Summary>('/command/incidents/summary');
  if (summary.error) return <ErrorBanner error={summary.error} />;
  const s = summary.data;
  if (!s) return <Loading />;
  return (
    <Section title="The quarter at a glance">
      <dl className="facts">
        <div className="fact">
          <dt>Opened in the last {s.days} days</dt>
          <dd>{s.total}</dd>
        </div>
        <div className="fact">
          <dt>Unresolved (any age)</dt>
          <dd data-testid="unresolved-count">{s.unresolved.count}</dd>
        </div>
        <div className="fact">
          <dt>Oldest unresolved</dt>
          <dd>{s.unresolved.oldest_age_seconds === null ? '—' : `${age(s.unresolved.oldest_age_seconds)} old`}</dd>
        </div>
      </dl>
      <BarChart
        title="Incidents opened in the window, by status now"
        unit="incidents"
        data={s.by_status.map((b) => ({ label: b.status, value: b.count }))}
      />
    </Section>
  );
}

function IncidentList() {
  const { query } = useRoute();
  const filters = queryOf(query, ['status', 'severity']);
  const list = useApi<Answer<'/command/incidents'>>('/command/incidents', { ...filters, limit: 1000 });
  return (
    <Page
      title="Incidents"
      description="Incidents gather detections and record the response. Create one from selected detections."
      actions={<Link to="/command/detections">Detections</Link>}
    >
      <Section title="Incidents">
        <div className="cc-filters">
          <FilterSelect param="status" label="Status" options={options(STATUSES, 'Every status')} />
          <FilterSelect param="severity" label="Severity" options={options(SEVERITIES, 'Every severity')} />
        </div>
        <DataTable<Incident>
          caption="Incidents"
          rows={list.data?.incidents}
          loading={list.loading}
          error={list.error}
          rowKey={(i) => i.id}
          empty={Object.keys(filters).length ? 'No incident matches these filters.' : 'No incident has been opened.'}
          columns={[
            { key: 'title', header: 'Title', render: (i) => <Link to={`/command/incidents/${i.id}`}>{i.title}</Link> },
            { key: 'severity', header: 'Severity', render: (i) => <Pill value={i.severity} /> },
            { key: 'status', header: 'Status', render: (i) => <Pill value={i.status} /> },
            { key: 'detections', header: 'Detections', numeric: true, render: (i) => i.detection_ids.length },
            { key: 'opened', header: 'Opened', render: (i) => when(i.created_at) },
            { key: 'updated', header: 'Updated', render: (i) => when(i.updated_at) },
          ]}
        />
      </Section>
      <IncidentSummary />
    </Page>
  );
}

/** Only what changed goes to the API: an emptied text or assignee is `null` (cleared). */
function changes(incident: Incident, values: FormValues): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (values.status && values.status !== incident.status) out.status = values.status;
  for (const key of ['assignee', 'containment', 'remediation', 'root_cause'] as const) {
    if (values[key] === undefined) continue;
    const next = values[key].trim() === '' ? null : values[key];
    if (next !== (incident[key] ?? null)) out[key] = next;
  }
  return out;
}

function WorkIncident(props: { incident: Incident; onSaved: (i: Incident) => void }) {
  const i = props.incident;
  const moves = INCIDENT_MOVES[i.status];
  return (
    <Section title="Work the incident">
      <Form
        label="Work the incident"
        submitLabel="Save changes"
        onSubmit={async (values) => {
          const body = changes(i, values);
          if (Object.keys(body).length === 0) return;
          props.onSaved(
            await api<Answer<'/command/incidents/{id}', 'patch'>>(
              'PATCH',
              `/command/incidents/${encodeURIComponent(i.id)}`,
              body,
            ),
          );
        }}
      >
        <Field
          name="status"
          label="Status"
          defaultValue={i.status}
          options={[i.status, ...moves].map((s) => ({ value: s, label: s === i.status ? `${s} (now)` : s }))}
          hint={moves.length ? `From ${i.status}: ${moves.join(', ')}.` : 'Closed is final.'}
        />
        <AssigneeField defaultValue={i.assignee} />
        <Field name="containment" label="Containment" multiline defaultValue={i.containment ?? ''} />
        <Field name="remediation" label="Remediation" multiline defaultValue={i.remediation ?? ''} />
        <Field name="root_cause" label="Root cause" multiline defaultValue={i.root_cause ?? ''} />
      </Form>
    </Section>
  );
}

function IncidentDetail(props: { id: string }) {
  const session = useSession();
  // The API has no read of one incident: it is found in the list (newest 1000).
  const list = useApi<Answer<'/command/incidents'>>('/command/incidents', { limit: 1000 });
  const [saved, setSaved] = useState<Incident | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const detections = useApi<Answer<'/command/detections'>>('/command/detections', { limit: 1000 });
  const members = useApi<Answer<'/members'>>(session.can('members:read') ? '/members' : null, { limit: 500 });
  const person = (id: string | null) => (id ? (members.data?.find((m) => m.user_id === id)?.email ?? id) : 'Nobody');
  const incident = saved ?? list.data?.incidents.find((i) => i.id === props.id);
  if (list.error) return <ErrorBanner error={list.error} />;
  if (!list.data) return <Loading />;
  if (!incident) {
    return (
      <Page title="Incident not found">
        <EmptyState title="No incident of yours has this id.">
          <Link to="/command/incidents">All incidents</Link>
        </EmptyState>
      </Page>
    );
  }
  const canOperate = session.can('command:operate') && incident.tenant_id === session.tenant.id;
  return (
    <Page title={incident.title} actions={<Link to="/command/incidents">All incidents</Link>}>
      {saved && version > 0 && <Notice>Changes saved.</Notice>}
      <Section title="Incident">
        <dl className="facts">
          <div className="fact">
            <dt>Status</dt>
            <dd data-testid="incident-status">{incident.status}</dd>
          </div>
          <div className="fact">
            <dt>Severity</dt>
            <dd>
              <Pill value={incident.severity} />
            </dd>
          </div>
          <div className="fact">
            <dt>Assignee</dt>
            <dd data-testid="incident-assignee">{person(incident.assignee)}</dd>
          </div>
          <div className="fact">
            <dt>Opened</dt>
            <dd>{when(incident.created_at)}</dd>
          </div>
          <div className="fact">
            <dt>Resolved</dt>
            <dd>{when(incident.resolved_at)}</dd>
          </div>
          <div className="fact">
            <dt>Closed</dt>
            <dd>{when(incident.closed_at)}</dd>
          </div>
        </dl>
        {incident.description && <p>{incident.description}</p>}
        {!canOperate && (
          <dl className="facts">
            <div className="fact">
              <dt>Containment</dt>
              <dd>{incident.containment ?? '—'}</dd>
            </div>
            <div className="fact">
              <dt>Remediation</dt>
              <dd>{incident.remediation ?? '—'}</dd>
            </div>
            <div className="fact">
              <dt>Root cause</dt>
              <dd>{incident.root_cause ?? '—'}</dd>
            </div>
          </dl>
        )}
      </Section>
      <Section title="Detections gathered">
        <DataTable<{ id: string; detection: Detection | undefined }>
          caption="Detections gathered"
          pageParam="detections_page"
          rows={incident.detection_ids.map((id) => ({
            id,
            detection: detections.data?.detections.find((d) => d.id === id),
          }))}
          rowKey={(row) => row.id}
          empty="No detection is linked."
          columns={[
            {
              key: 'rule',
              header: 'Rule',
              render: (row) =>
                row.detection ? <code>{row.detection.rule_id}</code> : <span className="cc-mono">{row.id}</span>,
            },
            {
              key: 'group',
              header: 'Group',
              render: (row) => <span className="cc-mono">{row.detection?.group_key ?? ''}</span>,
            },
            {
              key: 'status',
              header: 'Status',
              render: (row) => row.detection && <Pill value={row.detection.status} />,
            },
            { key: 'last', header: 'Last seen', render: (row) => when(row.detection?.last_seen) },
          ]}
        />
      </Section>
      {canOperate && (
        <WorkIncident
          key={`${incident.id}:${incident.updated_at}`}
          incident={incident}
          onSaved={(next) => {
            setSaved(next);
            setVersion((n) => n + 1);
            list.reload();
          }}
        />
      )}
    </Page>
  );
}

function Incidents() {
  const { path } = useRoute();
  const id = path.replace(/^\/command\/incidents\/?/, '');
  if (id) return <IncidentDetail key={id} id={decodeURIComponent(id)} />;
  return <IncidentList />;
}

export const incidentScreens: ScreenDef[] = [
  {
    path: '/command/incidents/*',
    title: 'Incidents',
    group: 'Command Center',
    visible: (s) => s.can('command:read'),
    component: Incidents,
  },
];
