import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { Link, useQueryState, useRoute } from '../router';
import {
  ConfirmButton,
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
  SecretOnce,
  Section,
} from '../ui';
import {
  CancelButton,
  ChoiceGroup,
  checkedOf,
  DeleteAndReturn,
  linesOf,
  RegisteredNotice,
  when,
} from '../ui/integrations-kit';
import { screens as resourceScreens } from './oauth-resources';
import type { ScreenDef } from './types';

/**
 * GET /api/v1/oauth/clients: a registered OAuth client (never its secret), and one as registered (with a confidential
 * client's secret, shown once).
 */
type Client = Answer<'/oauth/clients'>[number];
type ClientWithSecret = Answer<'/oauth/clients', 'post', 201>;
/** POST /api/v1/oauth/clients/{client_id}/rotate-secret: the client with its new secret (shown once). */
type RotatedClient = Answer<'/oauth/clients/{client_id}/rotate-secret', 'post'>;

const BASE = '/oauth/clients';
const GRANT_TYPES = [
  { value: 'authorization_code', label: 'Authorization code' },
  { value: 'refresh_token', label: 'Refresh token' },
  { value: 'client_credentials', label: 'Client credentials (confidential only)' },
];
const SCOPES = [{ value: 'openid' }, { value: 'profile' }, { value: 'email' }];
const URI_HINT =
  'One per line. https, http only on localhost, 127.0.0.1 or [::1], or a private-use scheme (com.example.app:/callback); exact strings, no fragment or wildcard.';

/** The registration fields a create or an edit sends (the API checks every rule again and names the field). */
function registration(values: FormValues<'name'>) {
  return {
    name: values.name,
    redirect_uris: linesOf(values.redirect_uris),
    grant_types: checkedOf(values.grant_types),
    scopes: checkedOf(values.scopes),
    post_logout_redirect_uris: linesOf(values.post_logout_redirect_uris),
    backchannel_logout_uri: values.backchannel_logout_uri?.trim() || null,
  };
}

function RegistrationFields(props: { client?: Client }) {
  const c = props.client;
  return (
    <>
      <Field name="name" label="Name" required defaultValue={c?.name} hint="Shown to people on the consent screen." />
      <Field
        name="redirect_uris"
        label="Redirect URIs"
        multiline
        defaultValue={c?.redirect_uris.join('\n')}
        hint={URI_HINT}
      />
      <ChoiceGroup
        name="grant_types"
        legend="Grant types"
        checked={c?.grant_types ?? ['authorization_code']}
        choices={GRANT_TYPES}
      />
      <ChoiceGroup
        name="scopes"
        legend="Scopes"
        checked={c?.scopes ?? ['openid', 'profile', 'email']}
        choices={SCOPES}
      />
      <Field
        name="post_logout_redirect_uris"
        label="Post-logout redirect URIs"
        multiline
        defaultValue={c?.post_logout_redirect_uris.join('\n')}
        hint="Optional; same rule as redirect URIs."
      />
      <Field
        name="backchannel_logout_uri"
        label="Back-channel logout URI"
        type="url"
        defaultValue={c?.backchannel_logout_uri ?? ''}
        hint="Optional: https on port 443 with a public host name."
      />
    </>
  );
}

function ClientList() {
  const clients = useApi<Client[]>(BASE);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ClientWithSecret | undefined>(undefined);
  const [type] = useQueryState('type');
  const rows = clients.data?.filter((row) => !type || row.client_type === type);
  return (
    <Page
      title="OAuth applications"
      description="Applications that sign people in through this organization or call its APIs."
      actions={
        <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
          Register application
        </button>
      }
    >
      {created && (
        <RegisteredNotice
          secretLabel={`Client secret of ${created.name}`}
          secret={created.client_secret}
          onDone={() => setCreated(undefined)}
        >
          Application {created.name} registered with client id <code>{created.client_id}</code>.{' '}
          <Link to={`/oauth/clients/${created.client_id}`}>Open it</Link>
        </RegisteredNotice>
      )}
      {creating && (
        <Section title="Register an application">
          <Form
            label="Register an OAuth application"
            submitLabel="Register"
            onSubmit={async (values: FormValues<'name' | 'client_type'>) => {
              const client = await api<ClientWithSecret>('POST', BASE, {
                ...registration(values),
                client_type: values.client_type as Body<'/oauth/clients', 'post'>['client_type'],
              } satisfies Body<'/oauth/clients', 'post'>);
              setCreated(client);
              setCreating(false);
              clients.reload();
            }}
            secondary={<CancelButton onCancel={() => setCreating(false)} />}
          >
            <Field
              name="client_type"
              label="Type"
              options={[
                { value: 'confidential', label: 'Confidential (a server that keeps a secret)' },
                { value: 'public', label: 'Public (browser or mobile app, PKCE, no secret)' },
              ]}
              hint="Fixed once registered."
            />
            <RegistrationFields />
          </Form>
        </Section>
      )}
      <Section title="Applications">
        <div className="filter-bar">
          <FilterSelect
            param="type"
            label="Type"
            options={[
              { value: '', label: 'All types' },
              { value: 'confidential', label: 'Confidential' },
              { value: 'public', label: 'Public' },
            ]}
          />
        </div>
        <DataTable<Client>
          caption="OAuth applications"
          rows={rows}
          loading={clients.loading}
          error={clients.error}
          rowKey={(row) => row.client_id}
          empty={type ? 'No application of this type.' : 'No applications registered yet.'}
          columns={[
            {
              key: 'name',
              header: 'Name',
              render: (row) => <Link to={`/oauth/clients/${row.client_id}`}>{row.name}</Link>,
            },
            { key: 'id', header: 'Client id', render: (row) => <code className="wrap-anywhere">{row.client_id}</code> },
            { key: 'type', header: 'Type', render: (row) => row.client_type },
            { key: 'grants', header: 'Grant types', render: (row) => row.grant_types.join(', ') },
            { key: 'created', header: 'Registered', render: (row) => when(row.created_at) },
          ]}
        />
      </Section>
    </Page>
  );
}

function ClientDetail(props: { clientId: string }) {
  const path = `${BASE}/${encodeURIComponent(props.clientId)}`;
  const client = useApi<Answer<'/oauth/clients/{client_id}'>>(path);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const title = client.data?.name ?? 'OAuth application';
  if (client.loading && !client.data)
    return (
      <Page title={title}>
        <Loading />
      </Page>
    );
  if (client.error || !client.data) {
    return (
      <Page title={title}>
        {client.error?.status === 404 ? (
          <EmptyState title="There is no such application in this organization.">
            <Link to="/oauth/clients">Back to OAuth applications</Link>
          </EmptyState>
        ) : (
          <ErrorBanner error={client.error} />
        )}
      </Page>
    );
  }
  const c = client.data;
  return (
    <Page
      title={title}
      description={`${c.client_type === 'confidential' ? 'Confidential' : 'Public'} client ${c.client_id}`}
      actions={
        <>
          {c.client_type === 'confidential' && (
            <ConfirmButton
              label="Rotate secret"
              question="Issue a new client secret? The current secret stops working at once."
              onConfirm={async () =>
                setSecret((await api<RotatedClient>('POST', `${path}/rotate-secret`)).client_secret)
              }
            />
          )}
          <DeleteAndReturn
            label="Delete application"
            question={`Delete ${c.name}? It stops working at once and its client id is never issued again.`}
            path={path}
            back="/oauth/clients"
          />
        </>
      }
    >
      <p>
        <Link to="/oauth/clients">All applications</Link>
      </p>
      {secret && (
        <SecretOnce label={`New client secret of ${c.name}`} value={secret} onDone={() => setSecret(undefined)} />
      )}
      <Section title="Registration">
        {saved && <Notice>Application saved.</Notice>}
        <Form
          key={c.updated_at}
          label="Application registration"
          submitLabel="Save"
          onSubmit={async (values: FormValues<'name'>) => {
            setSaved(false);
            await api('PATCH', path, registration(values) satisfies Body<'/oauth/clients/{client_id}', 'patch'>);
            setSaved(true);
            client.reload();
          }}
        >
          <dl className="facts">
            <dt>Client id</dt>
            <dd>
              <code className="wrap-anywhere">{c.client_id}</code>
            </dd>
            <dt>Registered</dt>
            <dd>{when(c.created_at)}</dd>
            <dt>Changed</dt>
            <dd>{when(c.updated_at)}</dd>
          </dl>
          <RegistrationFields client={c} />
        </Form>
      </Section>
    </Page>
  );
}

function OAuthClients() {
  const { path } = useRoute();
  const id = path.replace(/^\/oauth\/clients\/?/, '');
  return id ? <ClientDetail key={id} clientId={decodeURIComponent(id)} /> : <ClientList />;
}

export const screens: ScreenDef[] = [
  {
    path: '/oauth/clients/*',
    title: 'OAuth applications',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: OAuthClients,
  },
  ...resourceScreens,
];
