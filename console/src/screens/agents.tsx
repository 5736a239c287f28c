import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { Link, useQueryState, useRoute } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, Field, FilterSelect, Form, type FormValues, Page, SecretOnce, Section } from '../ui';
import { type Agent, type MyDelegation, numberOrUndefined, StateTag, when } from '../ui/agents-kit';
import { AgentDetailScreen } from './agents-detail';
import { issuerScreens } from './agents-issuers';
import type { ScreenDef } from './types';

/** POST /agents answers the record plus its credential, once. */
type Registered = Answer<'/agents', 'post', 201>;

const OVERSIGHT_OPTIONS = [
  { value: 'autonomous', label: 'Autonomous: acts within its delegations' },
  { value: 'supervised', label: "Supervised: every change waits for a person's approval" },
];

function RegisterAgent(props: { onRegistered: (agent: Registered) => void; onCancel: () => void }) {
  return (
    <Section title="Register an agent">
      <Form
        label="Register an agent"
        submitLabel="Register"
        onSubmit={async (
          values: FormValues<'name' | 'description' | 'oversight_mode' | 'risk_ceiling' | 'confidence_floor'>,
        ) => {
          const agent = await api<Registered>('POST', '/agents', {
            name: values.name,
            description: values.description || undefined,
            oversight_mode: values.oversight_mode as Body<'/agents', 'post'>['oversight_mode'],
            risk_ceiling: numberOrUndefined(values.risk_ceiling),
            confidence_floor: numberOrUndefined(values.confidence_floor),
          } satisfies Body<'/agents', 'post'>);
          props.onRegistered(agent);
        }}
        secondary={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <Field name="name" label="Name" required autoComplete="off" />
        <Field name="description" label="Description" multiline />
        <Field name="oversight_mode" label="Oversight" options={OVERSIGHT_OPTIONS} />
        <Field
          name="risk_ceiling"
          label="Risk ceiling (0-100)"
          type="number"
          defaultValue="100"
          hint="An action whose permission's risk is above it is refused."
        />
        <Field
          name="confidence_floor"
          label="Confidence floor (0-1)"
          type="number"
          defaultValue="0"
          hint="Above 0, the agent must state at least this confidence (Agent-Confidence header) on every action."
        />
      </Form>
    </Section>
  );
}

function MyDelegations() {
  const session = useSession();
  const mine = useApi<Answer<'/me/agents'>>('/me/agents');
  return (
    <Section title="Delegations you granted">
      <DataTable<MyDelegation>
        caption="Delegations you granted to agents"
        pageParam="mine_page"
        rows={mine.data?.delegations}
        loading={mine.loading}
        error={mine.error}
        rowKey={(row) => row.delegation_id}
        empty="You have delegated nothing to an agent."
        columns={[
          {
            key: 'agent',
            header: 'Agent',
            render: (row) => <Link to={`/agents/${row.agent_id}`}>{row.agent_name}</Link>,
          },
          { key: 'status', header: 'Agent status', render: (row) => <StateTag value={row.agent_status} /> },
          { key: 'permissions', header: 'Permissions', render: (row) => row.permissions.join(', ') },
          {
            key: 'expires',
            header: 'Expires',
            render: (row) => (row.expires_at ? when(row.expires_at) : 'When revoked'),
          },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) =>
              session.can('identity:self:write') && (
                <ConfirmButton
                  label="Revoke"
                  ariaLabel={`Revoke your delegation to ${row.agent_name}`}
                  question={`Revoke this delegation? ${row.agent_name} loses ${row.permissions.join(', ')} on its next request.`}
                  onConfirm={async () => {
                    await api('DELETE', `/me/agents/${encodeURIComponent(row.delegation_id)}`);
                    mine.reload();
                  }}
                />
              ),
          },
        ]}
      />
    </Section>
  );
}

function killSwitchText(agent: Agent) {
  return agent.kill_switch.engaged ? <StateTag value="engaged" label="Kill switch engaged" /> : 'Off';
}

function AgentList() {
  const session = useSession();
  const [status] = useQueryState('status');
  const [after, setAfter] = useQueryState('after');
  // The API pages by cursor, newest first; one page of up to 500 is paged and filtered here, older pages by link.
  const agents = useApi<Answer<'/agents'>>('/agents', { limit: 500, cursor: after });
  const [registering, setRegistering] = useState(false);
  const [registered, setRegistered] = useState<Registered | undefined>(undefined);
  const rows = agents.data?.agents.filter((agent) =>
    status === 'kill' ? agent.kill_switch.engaged : !status || agent.status === status,
  );
  const canManage = session.can('agents:manage');

  return (
    <Page
      title="Agents"
      description="AI agents act with permissions people delegated to them, governed on every call."
      actions={
        canManage && (
          <button
            type="button"
            className="button primary"
            onClick={() => {
              setRegistered(undefined);
              setRegistering(true);
            }}
            disabled={registering}
          >
            Register an agent
          </button>
        )
      }
    >
      {registered && (
        <Section title={`Registered ${registered.name}`}>
          <SecretOnce label="Agent credential" value={registered.credential} />
          <p>
            Give the credential to the agent's secret store, then{' '}
            <Link to={`/agents/${registered.agent_id}`}>delegate permissions to {registered.name}</Link>.
          </p>
        </Section>
      )}
      {registering && canManage && (
        <RegisterAgent
          onCancel={() => setRegistering(false)}
          onRegistered={(agent) => {
            setRegistering(false);
            setRegistered(agent);
            agents.reload();
          }}
        />
      )}
      <Section title="All agents">
        <div className="filters">
          <FilterSelect
            param="status"
            label="Show"
            options={[
              { value: '', label: 'Every agent' },
              { value: 'active', label: 'Active' },
              { value: 'suspended', label: 'Suspended' },
              { value: 'retired', label: 'Retired' },
              { value: 'kill', label: 'Kill switch engaged' },
            ]}
          />
        </div>
        <DataTable<Agent>
          caption="Agents"
          rows={rows}
          loading={agents.loading}
          error={agents.error}
          rowKey={(row) => row.agent_id}
          empty={status ? 'No agent matches this filter.' : 'No agent is registered yet.'}
          columns={[
            { key: 'name', header: 'Name', render: (row) => <Link to={`/agents/${row.agent_id}`}>{row.name}</Link> },
            { key: 'status', header: 'Status', render: (row) => <StateTag value={row.status} /> },
            { key: 'kill', header: 'Kill switch', render: killSwitchText },
            { key: 'oversight', header: 'Oversight', render: (row) => row.oversight_mode },
            { key: 'risk', header: 'Risk ceiling', numeric: true, render: (row) => row.risk_ceiling },
            { key: 'created', header: 'Registered', render: (row) => when(row.created_at) },
          ]}
        />
        {(after || agents.data?.next_cursor) && (
          <nav className="pager" aria-label="Older agents">
            {after && (
              <button type="button" onClick={() => setAfter(undefined)}>
                Newest agents
              </button>
            )}
            {agents.data?.next_cursor && (
              <button type="button" onClick={() => setAfter(agents.data?.next_cursor ?? undefined)}>
                Older agents
              </button>
            )}
          </nav>
        )}
      </Section>
      <MyDelegations />
    </Page>
  );
}

function Agents() {
  const { path } = useRoute();
  const id = path.replace(/^\/agents\/?/, '');
  if (id) return <AgentDetailScreen agentId={decodeURIComponent(id)} />;
  return <AgentList />;
}

export const screens: ScreenDef[] = [
  { path: '/agents/*', title: 'Agents', group: 'Agents', visible: (s) => s.can('agents:read'), component: Agents },
  ...issuerScreens,
];
