import { useEffect, useRef, useState } from 'react';
import { type Answer, api, useApi } from '../api';
import { Link, navigate, useRoute } from '../router';
import { useSession } from '../session';
import { BarChart, DataTable, ErrorBanner, Field, FilterSelect, Form, Notice, Page, Section } from '../ui';
import { type Detection, options, Pill, QueryText, queryOf, SEVERITIES, when } from '../ui/command-kit';
import type { ScreenDef } from './types';

/** GET /command/detections/summary: detections seen in the last days, by severity and by rule. */
type Summary = Answer<'/command/detections/summary'>;

/** The assignee picker: the roster's members when the person may read it, else a user id. */
export function AssigneeField(props: { defaultValue?: string | null }) {
  const session = useSession();
  const members = useApi<Answer<'/members'>>(session.can('members:read') ? '/members' : null, { limit: 500 });
  if (members.data) {
    return (
      <Field
        name="assignee"
        label="Assignee"
        defaultValue={props.defaultValue ?? ''}
        options={[
          { value: '', label: 'Nobody' },
          ...members.data.map((m) => ({
            value: m.user_id,
            label: m.user_id === session.me.user_id ? `${m.email} (you)` : m.email,
          })),
        ]}
      />
    );
  }
  return (
    <Field
      name="assignee"
      label="Assignee (user id)"
      defaultValue={props.defaultValue ?? ''}
      hint="An active member of your organization; empty for nobody."
    />
  );
}

function CreateIncident(props: { detections: Detection[]; onCancel: () => void }) {
  const top = SEVERITIES[Math.max(...props.detections.map((d) => SEVERITIES.indexOf(d.severity)))] ?? 'high';
  const ref = useFocusFirstField('create');
  return (
    <div ref={ref}>
      <Section title="Create an incident">
        <p>
          Gathers {props.detections.length} {props.detections.length === 1 ? 'detection' : 'detections'}:{' '}
          {props.detections.map((d) => d.rule_id).join(', ')}.
        </p>
        <Form
          label="Create an incident"
          submitLabel="Open the incident"
          onSubmit={async (values) => {
            const incident = await api<Answer<'/command/incidents', 'post', 201>>('POST', '/command/incidents', {
              title: values.title,
              severity: values.severity,
              description: values.description || undefined,
              detection_ids: props.detections.map((d) => d.id),
              assignee: values.assignee || undefined,
            });
            navigate(`/command/incidents/${incident.id}`);
          }}
          secondary={
            <button type="button" className="button" onClick={props.onCancel}>
              Cancel
            </button>
          }
        >
          <Field name="title" label="Title" required autoComplete="off" />
          <Field name="severity" label="Severity" defaultValue={top} options={options(SEVERITIES, '').slice(1)} />
          <Field name="description" label="Description" multiline />
          <AssigneeField />
        </Form>
      </Section>
    </div>
  );
}

/** Brings a form opened from a table row into view, its first field focused. */
function useFocusFirstField(key: string) {
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when another row opens the form
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
    ref.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [key]);
  return ref;
}

function Settle(props: { detection: Detection; onDone: (d: Detection) => void; onCancel: () => void }) {
  const d = props.detection;
  const ref = useFocusFirstField(d.id);
  return (
    <div ref={ref}>
      <Section title={`Settle ${d.rule_id} (${d.group_key})`}>
        <Form
          label="Settle the detection"
          submitLabel="Save"
          onSubmit={async (values) => {
            const settled = await api<Answer<'/command/detections/{id}/acknowledge', 'post'>>(
              'POST',
              `/command/detections/${encodeURIComponent(d.id)}/acknowledge`,
              {
                status: values.status,
                note: values.note || undefined,
              },
            );
            props.onDone(settled);
          }}
          secondary={
            <button type="button" className="button" onClick={props.onCancel}>
              Cancel
            </button>
          }
        >
          <Field
            name="status"
            label="New status"
            options={[
              ...(d.status === 'open' ? [{ value: 'acknowledged', label: 'Acknowledged: someone is on it' }] : []),
              { value: 'resolved', label: 'Resolved: closed' },
            ]}
          />
          <Field name="note" label="Note" multiline hint="What was done or found (at most 2000 characters)." />
        </Form>
      </Section>
    </div>
  );
}

function SummarySection() {
  const { query } = useRoute();
  const summary = useApi<Summary>('/command/detections/summary', queryOf(query, ['days', 'tenant_id']));
  if (summary.error) return <ErrorBanner error={summary.error} />;
  const s = summary.data;
  if (!s) return null;
  return (
    <Section title="This week at a glance">
      <p data-testid="detections-summary">
        {s.groups} {s.groups === 1 ? 'detection' : 'detections'} seen in the last {s.days} days, {s.open} still open.
      </p>
      <div className="grid">
        <BarChart
          title="Detections by rule"
          unit="detections"
          data={s.by_rule.map((r) => ({ label: r.rule_id, value: r.groups }))}
        />
        <BarChart
          title="Detections by severity"
          unit="detections"
          data={s.by_severity.map((r) => ({ label: r.severity, value: r.groups }))}
        />
      </div>
    </Section>
  );
}

function Detections() {
  const session = useSession();
  const { query } = useRoute();
  const filters = queryOf(query, ['severity', 'rule_id', 'actor_id', 'status', 'tenant_id']);
  const list = useApi<Answer<'/command/detections'>>('/command/detections', { ...filters, limit: 1000 });
  const incidents = useApi<Answer<'/command/incidents'>>('/command/incidents', { limit: 1000 });
  const incidentOf = (id: string) => incidents.data?.incidents.find((i) => i.detection_ids.includes(id));
  const canOperate = session.can('command:operate');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);
  const [settling, setSettling] = useState<Detection | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const rows = list.data?.detections;
  // Only the caller's own organization's detections can be linked or settled (the platform operator reads others).
  const own = (d: Detection) => d.tenant_id === session.tenant.id;
  const chosen = (rows ?? []).filter((d) => selected.has(d.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((set) => {
      const next = new Set(set);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Page
      title="Detections"
      description="Deduplicated groups of suspicious activity raised by the detection rules, newest first."
      actions={
        canOperate && (
          <button
            type="button"
            className="button primary"
            disabled={chosen.length === 0 || creating}
            onClick={() => {
              setSettling(undefined);
              setCreating(true);
            }}
          >
            Create incident{chosen.length > 0 ? ` from ${chosen.length}` : ''}
          </button>
        )
      }
    >
      {done && <Notice>{done}</Notice>}
      {creating && canOperate && chosen.length > 0 && (
        <CreateIncident detections={chosen} onCancel={() => setCreating(false)} />
      )}
      {settling && canOperate && (
        <Settle
          detection={settling}
          onCancel={() => setSettling(undefined)}
          onDone={(d) => {
            setSettling(undefined);
            setDone(`The ${d.rule_id} detection is ${d.status}.`);
            list.reload();
          }}
        />
      )}
      <Section title="Detections">
        <div className="cc-filters">
          <FilterSelect
            param="status"
            label="Status"
            options={options(['open', 'acknowledged', 'resolved'], 'Every status')}
          />
          <FilterSelect param="severity" label="Severity" options={options(SEVERITIES, 'Every severity')} />
          <QueryText param="rule_id" label="Rule" placeholder="refresh-token-replay" />
          <QueryText param="actor_id" label="Person or agent id" />
          {session.isPlatformOperator && <QueryText param="tenant_id" label="Organization id" />}
        </div>
        {canOperate && <p className="hint">Select detections to gather them in a new incident.</p>}
        <DataTable<Detection>
          caption="Detections"
          rows={rows}
          loading={list.loading}
          error={list.error}
          rowKey={(d) => d.id}
          empty={Object.keys(filters).length ? 'No detection matches these filters.' : 'No detection has been raised.'}
          columns={[
            ...(canOperate
              ? [
                  {
                    key: 'select',
                    header: 'Select',
                    render: (d: Detection) =>
                      own(d) && (
                        <input
                          type="checkbox"
                          className="cc-check"
                          aria-label={`Select ${d.rule_id} ${d.group_key}`}
                          checked={selected.has(d.id)}
                          onChange={(event) => toggle(d.id, event.target.checked)}
                        />
                      ),
                  },
                ]
              : []),
            { key: 'rule', header: 'Rule', render: (d) => <code>{d.rule_id}</code> },
            { key: 'group', header: 'Group', render: (d) => <span className="cc-mono">{d.group_key}</span> },
            { key: 'severity', header: 'Severity', render: (d) => <Pill value={d.severity} /> },
            { key: 'status', header: 'Status', render: (d) => <Pill value={d.status} /> },
            { key: 'count', header: 'Hits', numeric: true, render: (d) => d.count },
            { key: 'last', header: 'Last seen', render: (d) => when(d.last_seen) },
            { key: 'note', header: 'Note', render: (d) => d.note ?? '' },
            {
              key: 'incident',
              header: 'Incident',
              render: (d) => {
                const incident = incidentOf(d.id);
                return incident ? <Link to={`/command/incidents/${incident.id}`}>{incident.title}</Link> : '';
              },
            },
            ...(canOperate
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (d: Detection) =>
                      own(d) &&
                      d.status !== 'resolved' && (
                        <button
                          type="button"
                          className="button"
                          aria-label={`${d.status === 'open' ? 'Acknowledge' : 'Resolve'} ${d.rule_id} ${d.group_key}`}
                          onClick={() => {
                            setCreating(false);
                            setDone(undefined);
                            setSettling(d);
                          }}
                        >
                          {d.status === 'open' ? 'Acknowledge' : 'Resolve'}
                        </button>
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Section>
      <SummarySection />
    </Page>
  );
}

export const detectionScreens: ScreenDef[] = [
  {
    path: '/command/detections',
    title: 'Detections',
    group: 'Command Center',
    visible: (s) => s.can('command:read'),
    component: Detections,
  },
];
