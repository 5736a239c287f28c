import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { Link } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Field, Form, Loading, Notice, Page, SecretOnce, Section } from '../ui';
import {
  type Agent,
  type AgentDelegation,
  type AgentDetail,
  type Catalog,
  numberOrUndefined,
  PermissionPicker,
  StateTag,
  useNames,
  when,
} from '../ui/agents-kit';

/** POST /agents/{agent_id}/rotate-credential: the new credential, shown once. */
type Rotated = Answer<'/agents/{agent_id}/rotate-credential', 'post'>;
/** POST /agents/{agent_id}/kill-switch: the agent after the change. */
type KillSwitchChanged = Answer<'/agents/{agent_id}/kill-switch', 'post'>;

function KillSwitch(props: { agent: Agent; onChange: (agent: Agent) => void }) {
  const session = useSession();
  const names = useNames();
  const { agent } = props;
  const ks = agent.kill_switch;
  const retired = agent.status === 'retired';
  return (
    <Section title="Kill switch">
      <dl className="facts">
        <dt>State</dt>
        <dd data-testid="kill-switch-state">
          {ks.engaged ? <StateTag value="engaged" label="Engaged: every call of this agent is refused" /> : 'Off'}
        </dd>
        {ks.reason && (
          <>
            <dt>Reason</dt>
            <dd data-testid="kill-switch-reason">{ks.reason}</dd>
          </>
        )}
        {ks.engaged && (
          <>
            <dt>Engaged by</dt>
            <dd>{ks.engaged_by ? names.person(ks.engaged_by.id) : 'the service (blast-radius breaker or autonomy)'}</dd>
          </>
        )}
        <dt>Changed</dt>
        <dd>{when(ks.changed_at)}</dd>
      </dl>
      {!retired && !ks.engaged && session.can('agents:manage') && (
        <Form
          label="Engage the kill switch"
          submitLabel="Engage the kill switch"
          danger
          onSubmit={async (values) => {
            props.onChange(
              await api<KillSwitchChanged>('POST', `/agents/${agent.agent_id}/kill-switch`, {
                engaged: true,
                reason: values.reason,
              } satisfies Body<'/agents/{agent_id}/kill-switch', 'post'>),
            );
          }}
        >
          <Field
            name="reason"
            label="Reason"
            multiline
            required
            hint="Recorded with the change. Releasing needs a person holding agents:kill."
          />
        </Form>
      )}
      {!retired && ks.engaged && session.can('agents:kill') && (
        <div className="form-actions">
          <ConfirmButton
            label="Release the kill switch"
            question={`Release the kill switch of ${agent.name}? Its tokens work again at once and its blast-radius breaker starts a fresh hour.`}
            confirmLabel="Release"
            onConfirm={async () => {
              props.onChange(
                await api<KillSwitchChanged>('POST', `/agents/${agent.agent_id}/kill-switch`, {
                  engaged: false,
                } satisfies Body<'/agents/{agent_id}/kill-switch', 'post'>),
              );
            }}
          />
        </div>
      )}
      {!retired && ks.engaged && !session.can('agents:kill') && (
        <p className="hint">Releasing it needs the permission agents:kill, which your role does not hold.</p>
      )}
    </Section>
  );
}

function Governance(props: { agent: Agent; onChange: (agent: Agent) => void }) {
  const session = useSession();
  const { agent } = props;
  const [saved, setSaved] = useState(false);
  const editable = session.can('agents:manage') && agent.status !== 'retired';
  return (
    <Section title="Governance">
      {saved && <Notice>Governance saved.</Notice>}
      {!editable ? (
        <dl className="facts">
          <dt>Oversight</dt>
          <dd data-testid="oversight-mode">{agent.oversight_mode}</dd>
          <dt>Risk ceiling</dt>
          <dd>{agent.risk_ceiling}</dd>
          <dt>Confidence floor</dt>
          <dd>{agent.confidence_floor}</dd>
          <dt>Write budget per hour</dt>
          <dd>{agent.write_budget_per_hour ?? "The plan's figure"}</dd>
        </dl>
      ) : (
        <Form
          key={agent.updated_at}
          label="Governance"
          submitLabel="Save governance"
          onSubmit={async (values) => {
            setSaved(false);
            const budget = numberOrUndefined(values.write_budget_per_hour);
            props.onChange(
              await api<Answer<'/agents/{agent_id}', 'patch'>>('PATCH', `/agents/${agent.agent_id}`, {
                name: values.name,
                description: values.description === '' ? null : values.description,
                oversight_mode: values.oversight_mode,
                risk_ceiling: numberOrUndefined(values.risk_ceiling),
                confidence_floor: numberOrUndefined(values.confidence_floor),
                write_budget_per_hour: budget ?? null,
              }),
            );
            setSaved(true);
          }}
        >
          <Field name="name" label="Name" required defaultValue={agent.name} />
          <Field name="description" label="Description" multiline defaultValue={agent.description ?? ''} />
          <Field
            name="oversight_mode"
            label="Oversight"
            defaultValue={agent.oversight_mode}
            options={[
              { value: 'autonomous', label: 'Autonomous' },
              { value: 'supervised', label: "Supervised: every change waits for a person's approval" },
            ]}
          />
          <Field
            name="risk_ceiling"
            label="Risk ceiling (0-100)"
            type="number"
            defaultValue={String(agent.risk_ceiling)}
          />
          <Field
            name="confidence_floor"
            label="Confidence floor (0-1)"
            type="number"
            defaultValue={String(agent.confidence_floor)}
          />
          <Field
            name="write_budget_per_hour"
            label="Write budget per hour"
            type="number"
            defaultValue={agent.write_budget_per_hour === null ? '' : String(agent.write_budget_per_hour)}
            hint="Writes per rolling hour before the blast-radius breaker engages the kill switch; empty: the plan's figure."
          />
        </Form>
      )}
    </Section>
  );
}

function Delegations(props: { agent: AgentDetail; reload: () => void }) {
  const session = useSession();
  const names = useNames();
  const catalog = useApi<Catalog>('/authz/catalog');
  const { agent } = props;
  const [granted, setGranted] = useState<string | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const known = new Set(catalog.data?.permissions.map((p) => p.code) ?? []);
  // The API takes exact catalogue codes held by the caller: offer exactly those.
  const mine = [...session.permissions].filter((code) => known.has(code)).sort();
  return (
    <Section title="Delegations">
      {granted && <Notice>{granted}</Notice>}
      <DataTable<AgentDelegation>
        caption="Live delegations"
        pageParam="delegations_page"
        rows={agent.delegations}
        rowKey={(row) => row.delegation_id}
        empty="Nothing is delegated to this agent: it can do nothing."
        columns={[
          { key: 'permissions', header: 'Permissions', render: (row) => row.permissions.join(', ') },
          { key: 'by', header: 'Delegated by', render: (row) => names.person(row.delegator_user_id) },
          {
            key: 'expires',
            header: 'Expires',
            render: (row) => (row.expires_at ? when(row.expires_at) : 'When revoked'),
          },
          { key: 'created', header: 'Granted', render: (row) => when(row.created_at) },
          {
            key: 'actions',
            header: 'Actions',
            // Only the delegator revokes (DELETE /me/agents/{id}); others' delegations show no button.
            render: (row) =>
              row.delegator_user_id === session.me.user_id && session.can('identity:self:write') ? (
                <ConfirmButton
                  label="Revoke"
                  ariaLabel={`Revoke delegation of ${row.permissions.join(', ')}`}
                  question={`Revoke this delegation? ${agent.name} loses ${row.permissions.join(', ')} on its next request.`}
                  onConfirm={async () => {
                    await api('DELETE', `/me/agents/${encodeURIComponent(row.delegation_id)}`);
                    setGranted(undefined);
                    props.reload();
                  }}
                />
              ) : (
                <span className="muted">Only its delegator can revoke it</span>
              ),
          },
        ]}
      />
      {session.can('agents:manage') && agent.status !== 'retired' && (
        <>
          <h3>Delegate permissions</h3>
          {catalog.loading && !catalog.data && <Loading />}
          <ErrorBanner error={catalog.error} />
          {catalog.data && (
            <Form
              key={formKey}
              label="Delegate permissions"
              submitLabel="Delegate"
              onSubmit={async (values) => {
                const permissions = (values.permissions ?? '').split('\n').filter(Boolean);
                if (permissions.length === 0) throw new Error('Choose at least one permission to delegate.');
                const days = numberOrUndefined(values.expires_in_days);
                await api('POST', `/agents/${agent.agent_id}/delegations`, {
                  permissions,
                  ...(days === undefined ? {} : { expires_in_days: days }),
                } satisfies Body<'/agents/{agent_id}/delegations', 'post'>);
                setGranted(`Delegated ${permissions.join(', ')} to ${agent.name}.`);
                setFormKey((n) => n + 1);
                props.reload();
              }}
            >
              <PermissionPicker
                name="permissions"
                legend="Permissions to delegate"
                codes={mine}
                catalog={catalog.data}
                riskCeiling={agent.risk_ceiling}
              />
              <Field
                name="expires_in_days"
                label="Expires after (days, 1-3650)"
                type="number"
                hint="Leave empty to keep it until revoked."
              />
            </Form>
          )}
        </>
      )}
    </Section>
  );
}

function Lifecycle(props: { agent: Agent; onChange: (agent: Agent) => void; onRotated: (r: Rotated) => void }) {
  const { agent } = props;
  const post = (verb: 'suspend' | 'resume' | 'retire') =>
    api<Answer<`/agents/{agent_id}/${typeof verb}`, 'post'>>('POST', `/agents/${agent.agent_id}/${verb}`);
  return (
    <div className="actions-row">
      {agent.status === 'active' && (
        <ConfirmButton
          label="Suspend"
          question={`Suspend ${agent.name}? Its tokens are refused and its credential cannot mint until it is resumed.`}
          onConfirm={async () => props.onChange(await post('suspend'))}
        />
      )}
      {agent.status === 'suspended' && (
        <ConfirmButton
          label="Resume"
          danger={false}
          question={`Resume ${agent.name}? It acts again within its delegations.`}
          onConfirm={async () => props.onChange(await post('resume'))}
        />
      )}
      <ConfirmButton
        label="Rotate credential"
        question={`Replace the credential of ${agent.name}? The current one and every token minted with it stop working at once; the new one is shown once.`}
        confirmLabel="Rotate"
        onConfirm={async () =>
          props.onRotated(await api<Rotated>('POST', `/agents/${agent.agent_id}/rotate-credential`))
        }
      />
      <ConfirmButton
        label="Retire"
        question={`Retire ${agent.name} for good? Its credential dies at once, its delegations end, and it can never change again.`}
        confirmLabel="Retire for good"
        onConfirm={async () => props.onChange(await post('retire'))}
      />
    </div>
  );
}

export function AgentDetailScreen(props: { agentId: string }) {
  const session = useSession();
  const names = useNames();
  const detail = useApi<AgentDetail>(`/agents/${encodeURIComponent(props.agentId)}`);
  const [rotated, setRotated] = useState<Rotated | undefined>(undefined);
  const agent = detail.data;
  const changed = () => detail.reload();

  if (!agent) {
    return (
      <Page title="Agent">
        <p>
          <Link to="/agents">All agents</Link>
        </p>
        {detail.loading ? <Loading /> : <ErrorBanner error={detail.error} />}
      </Page>
    );
  }
  return (
    <Page
      title={agent.name}
      description={agent.description ?? undefined}
      actions={
        session.can('agents:manage') &&
        agent.status !== 'retired' && (
          <Lifecycle
            agent={agent}
            onChange={changed}
            onRotated={(r) => {
              setRotated(r);
              changed();
            }}
          />
        )
      }
    >
      <p>
        <Link to="/agents">All agents</Link>
      </p>
      {rotated && (
        <SecretOnce label="New agent credential" value={rotated.credential} onDone={() => setRotated(undefined)} />
      )}
      <Section title="Agent">
        <dl className="facts">
          <dt>Status</dt>
          <dd data-testid="agent-status">
            <StateTag value={agent.status} />
          </dd>
          <dt>Credential</dt>
          <dd>
            <code className="code-inline">{agent.credential_prefix}…</code> issued {when(agent.credential_issued_at)}
          </dd>
          <dt>Registered</dt>
          <dd>
            {when(agent.created_at)} by {names.person(agent.created_by_user_id)}
          </dd>
          {agent.suspended_at && (
            <>
              <dt>Suspended</dt>
              <dd>{when(agent.suspended_at)}</dd>
            </>
          )}
          {agent.retired_at && (
            <>
              <dt>Retired</dt>
              <dd>{when(agent.retired_at)}</dd>
            </>
          )}
          {session.can('agents:approvals:read') && (
            <>
              <dt>Approvals</dt>
              <dd>
                <Link to={`/approvals?status=all&agent=${agent.agent_id}`}>Its approval asks</Link>
              </dd>
            </>
          )}
          <dt>Agent id</dt>
          <dd className="break-anywhere">
            <code className="code-inline">{agent.agent_id}</code>
          </dd>
        </dl>
      </Section>
      <KillSwitch agent={agent} onChange={changed} />
      <Governance agent={agent} onChange={changed} />
      <Delegations agent={agent} reload={changed} />
    </Page>
  );
}
