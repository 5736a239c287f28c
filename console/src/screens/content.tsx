import { useEffect, useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import { ErrorBanner, Field, Form, type FormValues, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

// docs/approvals.md "Earned autonomy" and reversals (Part B 4.3): agent-authored content's evidence.

/** GET /approvals/content/track-record/{agent_id} */
type TrackRecord = Answer<'/approvals/content/track-record/{agent_id}'>;
/** POST /approvals/content/reversal: 201 when recorded, 200 with the first record when the content already has one. */
type Reversal = Answer<'/approvals/content/reversal', 'post', 200 | 201>;

const BASE = '/approvals/content';
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

/** Pick an agent from the list when the person may read it (agents:read), else by its id. */
function AgentPicker(props: { value: string; onPick: (id: string) => void }) {
  const session = useSession();
  const agents = useApi<Answer<'/agents'>>(session.can('agents:read') ? '/agents' : null, { limit: 500 });
  return (
    <form
      className="filter-bar"
      aria-label="Choose an agent"
      onSubmit={(event) => {
        event.preventDefault();
        const value = new FormData(event.currentTarget).get('agent');
        props.onPick(typeof value === 'string' ? value.trim() : '');
      }}
    >
      <div className="field">
        <label htmlFor="content-agent">Agent</label>
        {agents.data ? (
          <select id="content-agent" name="agent" defaultValue={props.value} key={props.value}>
            <option value="">Choose an agent</option>
            {agents.data.agents.map((agent) => (
              <option key={agent.agent_id} value={agent.agent_id}>
                {agent.name} ({agent.status})
              </option>
            ))}
          </select>
        ) : (
          <input id="content-agent" name="agent" defaultValue={props.value} placeholder="agent id" key={props.value} />
        )}
      </div>
      <button type="submit" className="button">
        Show track record
      </button>
    </form>
  );
}

function TrackRecordSection(props: { version: number }) {
  const [agent, setAgent] = useQueryState('agent');
  const record = useApi<TrackRecord>(agent ? `${BASE}/track-record/${encodeURIComponent(agent)}` : null);
  const { reload } = record;
  // A reversal just recorded changes the record: read it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the trigger.
  useEffect(() => {
    if (props.version > 0) reload();
  }, [props.version]);
  const data = record.data;
  return (
    <Section title="Track record">
      <p className="muted">
        How people decided this agent's content: the approval rate's lower bound (Wilson, 95 %) must reach the bar, over
        enough decided asks, with no reversal in 30 days, before its content could be trusted to go out unreviewed.
      </p>
      <AgentPicker value={agent} onPick={setAgent} />
      {record.loading && !data && <Loading />}
      <ErrorBanner error={record.error} />
      {data && data.agent_id === agent && (
        <>
          <dl className="facts" data-testid="track-record">
            <dt>Decided asks</dt>
            <dd>
              {data.decided} ({data.approvals} approved, {data.denials} denied; at least {data.min_decided} needed)
            </dd>
            <dt>Approval rate</dt>
            <dd>{data.approval_rate === null ? 'none decided yet' : pct(data.approval_rate)}</dd>
            <dt>Lower bound vs bar</dt>
            <dd>
              {pct(data.lower_bound)} of a bar of {pct(data.bar)}
            </dd>
            <dt>Reversals (30 days)</dt>
            <dd>{data.reversals_30d}</dd>
            <dt>Eligible</dt>
            <dd>{data.eligible ? 'Yes: every criterion is met' : 'No'}</dd>
          </dl>
          {data.unmet.length > 0 && (
            <>
              <h3>Criteria not met</h3>
              <ul>
                {data.unmet.map((item) => (
                  <li key={item.criterion}>
                    <strong>{item.criterion}</strong>: {item.detail}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Section>
  );
}

function RecordReversal(props: { onRecorded: (reversal: Reversal) => void }) {
  const [recorded, setRecorded] = useState<Reversal | undefined>(undefined);
  return (
    <Section title="Record a reversal">
      <p className="muted">
        Published agent-authored content had to be pulled: it counts against the agent that wrote it, and you are
        recorded as the reviewer. Recording the same content again returns the first record.
      </p>
      {recorded && (
        <Notice>
          Reversal recorded {when(recorded.recorded_at)} against agent <code>{recorded.agent_id}</code>.
        </Notice>
      )}
      <Form
        label="Record a reversal"
        submitLabel="Record reversal"
        onSubmit={async (values: FormValues<'content_hash' | 'reason'>) => {
          const reversal = await api<Reversal>('POST', `${BASE}/reversal`, {
            content_hash: values.content_hash?.trim().toLowerCase(),
            reason: values.reason,
          } satisfies Body<'/approvals/content/reversal', 'post'>);
          setRecorded(reversal);
          props.onRecorded(reversal);
        }}
      >
        <Field
          name="content_hash"
          label="Content hash (SHA-256, hex)"
          required
          hint="The hash of the exact bytes the agent asked about."
        />
        <Field name="reason" label="Reason" required multiline hint="Why it had to be pulled." />
      </Form>
    </Section>
  );
}

function Content() {
  const session = useSession();
  const [, setAgent] = useQueryState('agent');
  const [version, setVersion] = useState(0);
  return (
    <Page
      title="Agent content"
      description="Agent-authored content: each agent's track record, and reversals of content that had to be pulled."
    >
      {session.can('content:read') && <TrackRecordSection version={version} />}
      {session.can('content:review') && (
        <RecordReversal
          onRecorded={(reversal) => {
            setAgent(reversal.agent_id);
            setVersion((v) => v + 1);
          }}
        />
      )}
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/content',
    title: 'Agent content',
    group: 'Agents',
    visible: (s) => s.can('content:read') || s.can('content:review'),
    component: Content,
  },
];
