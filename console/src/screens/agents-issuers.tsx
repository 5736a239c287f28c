import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useSession } from '../session';
import {
  ConfirmButton,
  DataTable,
  EmptyState,
  ErrorBanner,
  Field,
  Form,
  type FormValues,
  Loading,
  Notice,
  Page,
  Section,
} from '../ui';
import { type Agent, StateTag, when } from '../ui/agents-kit';
import type { ScreenDef } from './types';

/** GET /agents/issuers: one trusted issuer with its bindings. */
type Issuer = Answer<'/agents/issuers'>[number];
type Binding = Issuer['bindings'][number];
/** POST /agents/issuers: the issuer just trusted (no bindings yet). */
type TrustedIssuer = Answer<'/agents/issuers', 'post', 201>;

const PROFILES = [
  { value: 'generic', label: 'Any OpenID Connect issuer' },
  { value: 'github-actions', label: 'GitHub Actions' },
  { value: 'gitlab-ci', label: 'GitLab CI' },
  { value: 'kubernetes', label: 'Kubernetes service accounts' },
];

function RegisterIssuer(props: { onDone: (issuer: TrustedIssuer) => void; onCancel: () => void }) {
  return (
    <Section title="Trust an issuer">
      <Form
        label="Trust an issuer"
        submitLabel="Trust issuer"
        onSubmit={async (values: FormValues<'issuer' | 'profile' | 'jwks_uri' | 'name'>) => {
          const issuer = await api<TrustedIssuer>('POST', '/agents/issuers', {
            issuer: values.issuer,
            profile: values.profile as Body<'/agents/issuers', 'post'>['profile'],
            ...(values.jwks_uri ? { jwks_uri: values.jwks_uri } : {}),
            ...(values.name ? { name: values.name } : {}),
          } satisfies Body<'/agents/issuers', 'post'>);
          props.onDone(issuer);
        }}
        secondary={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <Field
          name="issuer"
          label="Issuer URL"
          type="url"
          required
          placeholder="https://token.actions.githubusercontent.com"
          hint="The exact iss of its tokens."
        />
        <Field name="profile" label="Kind" options={PROFILES} />
        <Field
          name="jwks_uri"
          label="Key set URL"
          type="url"
          hint="Leave empty to take it from the issuer's discovery document."
        />
        <Field name="name" label="Display name" />
      </Form>
    </Section>
  );
}

function AddBinding(props: { issuer: Issuer; agents: Agent[]; onDone: () => void }) {
  const [formKey, setFormKey] = useState(0);
  const live = props.agents.filter((agent) => agent.status !== 'retired');
  if (live.length === 0) return <p className="muted">Register an agent first to bind this issuer's tokens to it.</p>;
  return (
    <Form
      key={formKey}
      label={`Bind tokens of ${props.issuer.name ?? props.issuer.issuer}`}
      submitLabel="Add binding"
      onSubmit={async (values: FormValues<'agent_id'>) => {
        const claims: Record<string, string> = {};
        for (const claim of props.issuer.claim_schema) if (values[claim]) claims[claim] = values[claim]!;
        await api('POST', `/agents/issuers/${props.issuer.id}/bindings`, {
          agent_id: values.agent_id,
          claims,
        } satisfies Body<'/agents/issuers/{id}/bindings', 'post'>);
        setFormKey((n) => n + 1);
        props.onDone();
      }}
    >
      <Field
        name="agent_id"
        label="Agent"
        options={live.map((agent) => ({ value: agent.agent_id, label: agent.name }))}
      />
      {props.issuer.claim_schema.map((claim) => (
        <Field
          key={claim}
          name={claim}
          label={`Claim ${claim}`}
          required={claim === 'sub'}
          autoComplete="off"
          hint={claim === 'sub' ? 'Exact value; no wildcards.' : undefined}
        />
      ))}
    </Form>
  );
}

function IssuerCard(props: { issuer: Issuer; agents: Agent[]; reload: () => void }) {
  const session = useSession();
  const { issuer } = props;
  const manage = session.can('agents:manage');
  const agentName = (id: string) => props.agents.find((agent) => agent.agent_id === id)?.name ?? id;
  const label = issuer.name ?? issuer.issuer;
  return (
    <Section
      title={label}
      actions={
        manage && (
          <div className="actions-row">
            {issuer.enabled ? (
              <ConfirmButton
                label="Disable"
                ariaLabel={`Disable ${label}`}
                question={`Disable ${label}? Every exchange of its tokens is refused; its bindings are kept.`}
                onConfirm={async () => {
                  await api('PATCH', `/agents/issuers/${issuer.id}`, {
                    enabled: false,
                  } satisfies Body<'/agents/issuers/{id}', 'patch'>);
                  props.reload();
                }}
              />
            ) : (
              <ConfirmButton
                label="Enable"
                ariaLabel={`Enable ${label}`}
                danger={false}
                question={`Enable ${label}? Its tokens are exchanged again for the agents they are bound to.`}
                onConfirm={async () => {
                  await api('PATCH', `/agents/issuers/${issuer.id}`, {
                    enabled: true,
                  } satisfies Body<'/agents/issuers/{id}', 'patch'>);
                  props.reload();
                }}
              />
            )}
            <ConfirmButton
              label="Remove"
              ariaLabel={`Remove ${label}`}
              question={`Stop trusting ${label}? It and its bindings are removed.`}
              onConfirm={async () => {
                await api('DELETE', `/agents/issuers/${issuer.id}`);
                props.reload();
              }}
            />
          </div>
        )
      }
    >
      <dl className="facts">
        <dt>Issuer</dt>
        <dd className="break-anywhere">{issuer.issuer}</dd>
        <dt>Kind</dt>
        <dd>{PROFILES.find((p) => p.value === issuer.profile)?.label ?? issuer.profile}</dd>
        <dt>Key set</dt>
        <dd className="break-anywhere">{issuer.jwks_uri}</dd>
        <dt>State</dt>
        <dd data-testid="issuer-state">
          <StateTag value={issuer.enabled ? 'active' : 'suspended'} label={issuer.enabled ? 'Enabled' : 'Disabled'} />
        </dd>
        <dt>Trusted since</dt>
        <dd>{when(issuer.created_at)}</dd>
      </dl>
      <h3>Bindings</h3>
      <DataTable<Binding>
        caption={`Bindings of ${label}`}
        pageParam={`b_${issuer.id.slice(-6)}`}
        rows={issuer.bindings}
        rowKey={(row) => row.binding_id}
        empty="No binding: no token of this issuer is exchanged yet."
        columns={[
          { key: 'agent', header: 'Agent', render: (row) => agentName(row.agent_id) },
          {
            key: 'claims',
            header: 'Claims (exact)',
            render: (row) => (
              <span className="code-inline break-anywhere">
                {Object.entries(row.claims)
                  .map(([name, value]) => `${name}=${value}`)
                  .join(', ')}
              </span>
            ),
          },
          { key: 'created', header: 'Added', render: (row) => when(row.created_at) },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) =>
              manage && (
                <ConfirmButton
                  label="Remove"
                  ariaLabel={`Remove the binding to ${agentName(row.agent_id)}`}
                  question="Remove this binding? Tokens with these claims are no longer exchanged."
                  onConfirm={async () => {
                    await api('DELETE', `/agents/issuers/${issuer.id}/bindings/${row.binding_id}`);
                    props.reload();
                  }}
                />
              ),
          },
        ]}
      />
      {manage && (
        <>
          <h3>Add a binding</h3>
          <AddBinding issuer={issuer} agents={props.agents} onDone={props.reload} />
        </>
      )}
    </Section>
  );
}

function Issuers() {
  const session = useSession();
  const issuers = useApi<Answer<'/agents/issuers'>>('/agents/issuers');
  const agents = useApi<Answer<'/agents'>>('/agents', { limit: 500 });
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<string | undefined>(undefined);
  return (
    <Page
      title="Workload issuers"
      description="CI jobs and workloads exchange their own identity tokens for agent tokens: trust an issuer, then bind exact claims to an agent."
      actions={
        session.can('agents:manage') && (
          <button type="button" className="button primary" onClick={() => setAdding(true)} disabled={adding}>
            Trust an issuer
          </button>
        )
      }
    >
      {added && <Notice>{added}</Notice>}
      {adding && (
        <RegisterIssuer
          onCancel={() => setAdding(false)}
          onDone={(issuer) => {
            setAdding(false);
            setAdded(`Trusted ${issuer.issuer}.`);
            issuers.reload();
          }}
        />
      )}
      {issuers.loading && !issuers.data && <Loading />}
      <ErrorBanner error={issuers.error} />
      {issuers.data?.length === 0 && <EmptyState title="No workload issuer is trusted." />}
      {issuers.data?.map((issuer) => (
        <IssuerCard key={issuer.id} issuer={issuer} agents={agents.data?.agents ?? []} reload={issuers.reload} />
      ))}
    </Page>
  );
}

export const issuerScreens: ScreenDef[] = [
  {
    path: '/agent-issuers',
    title: 'Workload issuers',
    group: 'Agents',
    visible: (s) => s.can('agents:read'),
    component: Issuers,
  },
];
