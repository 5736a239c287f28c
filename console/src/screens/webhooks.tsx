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
import { CancelButton, ChoiceGroup, checkedOf, DeleteAndReturn, RegisteredNotice, when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** docs/webhooks.md: an endpoint, the endpoint with its signing secret (shown once), the event catalogue, a delivery. */
type Endpoint = Answer<'/tenants/webhooks'>[number];
type EndpointWithSecret = Answer<'/tenants/webhooks', 'post', 201>;
type EventType = Answer<'/tenants/webhooks/events'>[number];
type Delivery = Answer<'/tenants/webhooks/{id}/deliveries'>[number];
type QueuedReplay = Answer<'/tenants/webhooks/{id}/deliveries/{delivery_id}/replay', 'post', 202>;
type TestResult = Answer<'/tenants/webhooks/{id}/test', 'post'>;
type RotatedEndpoint = Answer<'/tenants/webhooks/{id}/rotate-secret', 'post'>;

const BASE = '/tenants/webhooks';
const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  dead_letter: 'Failed (dead letter)',
};

function EventChoices(props: { checked?: readonly string[] }) {
  const events = useApi<EventType[]>(`${BASE}/events`);
  if (events.loading && !events.data) return <Loading label="Loading event types…" />;
  if (events.error) return <ErrorBanner error={events.error} />;
  return (
    <ChoiceGroup
      name="event_types"
      legend="Events"
      hint="The endpoint receives only the events checked here."
      checked={props.checked}
      choices={(events.data ?? []).map((event) => ({ value: event.type, hint: event.description }))}
    />
  );
}

function WebhookList() {
  const endpoints = useApi<Endpoint[]>(BASE);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<EndpointWithSecret | undefined>(undefined);
  const [state] = useQueryState('state');
  const rows = endpoints.data?.filter((row) => !state || (state === 'enabled') === row.enabled);
  return (
    <Page
      title="Webhooks"
      description="The organization's events, signed and pushed to your HTTPS endpoints."
      actions={
        <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
          Add endpoint
        </button>
      }
    >
      {created && (
        <RegisteredNotice
          secretLabel={`Signing secret of ${created.url}`}
          secret={created.secret}
          onDone={() => setCreated(undefined)}
        >
          Endpoint added. <Link to={`/webhooks/${created.id}`}>Open its delivery log</Link>
        </RegisteredNotice>
      )}
      {creating && (
        <Section title="Add an endpoint">
          <Form
            label="Add a webhook endpoint"
            submitLabel="Add endpoint"
            onSubmit={async (values: FormValues<'url' | 'description'>) => {
              const endpoint = await api<EndpointWithSecret>('POST', BASE, {
                url: values.url,
                description: values.description || undefined,
                event_types: checkedOf(values.event_types),
              } satisfies Body<'/tenants/webhooks', 'post'>);
              setCreated(endpoint);
              setCreating(false);
              endpoints.reload();
            }}
            secondary={<CancelButton onCancel={() => setCreating(false)} />}
          >
            <Field
              name="url"
              label="URL"
              type="url"
              required
              placeholder="https://hooks.example.com/identity"
              hint="https on port 443 with a public host name."
            />
            <Field name="description" label="Description" />
            <EventChoices />
          </Form>
        </Section>
      )}
      <Section title="Endpoints">
        <div className="filter-bar">
          <FilterSelect
            param="state"
            label="Show"
            options={[
              { value: '', label: 'All endpoints' },
              { value: 'enabled', label: 'Enabled' },
              { value: 'disabled', label: 'Disabled' },
            ]}
          />
        </div>
        <DataTable<Endpoint>
          caption="Webhook endpoints"
          rows={rows}
          loading={endpoints.loading}
          error={endpoints.error}
          rowKey={(row) => row.id}
          empty={state ? 'No endpoint matches this filter.' : 'No webhook endpoints yet.'}
          columns={[
            {
              key: 'url',
              header: 'URL',
              render: (row) => (
                <Link to={`/webhooks/${row.id}`} className="wrap-anywhere">
                  {row.url}
                </Link>
              ),
            },
            { key: 'description', header: 'Description', render: (row) => row.description || '—' },
            { key: 'events', header: 'Events', render: (row) => row.event_types.join(', ') || 'none' },
            {
              key: 'state',
              header: 'State',
              render: (row) =>
                row.enabled ? 'Enabled' : `Disabled${row.disabled_reason ? `: ${row.disabled_reason}` : ''}`,
            },
            { key: 'created', header: 'Added', render: (row) => when(row.created_at) },
          ]}
        />
      </Section>
    </Page>
  );
}

function DeliveryLog(props: { endpointId: string }) {
  const [limitText] = useQueryState('limit');
  const [status] = useQueryState('status');
  const limit = Math.min(200, Math.max(1, Number.parseInt(limitText, 10) || 50));
  const log = useApi<Delivery[]>(`${BASE}/${encodeURIComponent(props.endpointId)}/deliveries`, { limit });
  const [replayed, setReplayed] = useState<string | undefined>(undefined);
  const rows = log.data?.filter((row) => !status || row.status === status);
  return (
    <Section
      title="Delivery log"
      actions={
        <button type="button" className="button" onClick={log.reload}>
          Refresh
        </button>
      }
    >
      {replayed && <Notice>Replay queued as delivery {replayed}.</Notice>}
      <div className="filter-bar">
        <FilterSelect
          param="status"
          label="Status"
          options={[
            { value: '', label: 'Any status' },
            ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
        />
        <FilterSelect
          param="limit"
          label="Newest"
          options={[
            { value: '', label: '50 deliveries' },
            { value: '100', label: '100 deliveries' },
            { value: '200', label: '200 deliveries' },
          ]}
        />
      </div>
      <DataTable<Delivery>
        caption="Deliveries, newest first"
        pageParam="log_page"
        rows={rows}
        loading={log.loading}
        error={log.error}
        rowKey={(row) => row.id}
        empty={status ? 'No delivery has this status.' : 'Nothing delivered yet.'}
        columns={[
          { key: 'created', header: 'Queued', render: (row) => when(row.created_at) },
          { key: 'type', header: 'Event', render: (row) => row.event_type },
          { key: 'status', header: 'Status', render: (row) => STATUS_LABELS[row.status] ?? row.status },
          { key: 'attempts', header: 'Attempts', numeric: true, render: (row) => row.attempts },
          {
            key: 'outcome',
            header: 'Last outcome',
            render: (row) =>
              row.last_error
                ? `${row.last_error}${row.last_status_code ? ` (HTTP ${row.last_status_code})` : ''}`
                : row.last_status_code
                  ? `HTTP ${row.last_status_code}`
                  : '—',
          },
          {
            key: 'next',
            header: 'Next attempt',
            render: (row) => (row.next_attempt_at ? when(row.next_attempt_at) : '—'),
          },
          {
            key: 'replay',
            header: 'Replay of',
            render: (row) => (row.replay_of ? <code title={row.replay_of}>…{row.replay_of.slice(-8)}</code> : '—'),
          },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) => (
              <ConfirmButton
                label="Replay"
                danger={false}
                ariaLabel={`Replay delivery ${row.id} of ${row.event_type}`}
                question="Send this event again? A new delivery with the same event id is queued; this one stays as it is."
                onConfirm={async () => {
                  const replay = await api<QueuedReplay>(
                    'POST',
                    `${BASE}/${encodeURIComponent(props.endpointId)}/deliveries/${encodeURIComponent(row.id)}/replay`,
                  );
                  setReplayed(replay.id);
                  log.reload();
                }}
              />
            ),
          },
        ]}
      />
    </Section>
  );
}

function WebhookDetail(props: { id: string }) {
  const endpoints = useApi<Endpoint[]>(BASE);
  const endpoint = endpoints.data?.find((row) => row.id === props.id);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<TestResult | undefined>(undefined);
  const [testError, setTestError] = useState<Error | undefined>(undefined);
  const path = `${BASE}/${encodeURIComponent(props.id)}`;

  if (endpoints.loading && !endpoints.data)
    return (
      <Page title="Webhook endpoint">
        <Loading />
      </Page>
    );
  if (endpoints.error)
    return (
      <Page title="Webhook endpoint">
        <ErrorBanner error={endpoints.error} />
      </Page>
    );
  if (!endpoint) {
    return (
      <Page title="Webhook endpoint">
        <EmptyState title="There is no such endpoint in this organization.">
          <Link to="/webhooks">Back to webhooks</Link>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page
      title="Webhook endpoint"
      description={endpoint.url}
      actions={
        <>
          <button
            type="button"
            className="button"
            onClick={async () => {
              setTest(undefined);
              setTestError(undefined);
              try {
                setTest(await api<TestResult>('POST', `${path}/test`));
              } catch (reason) {
                setTestError(reason as Error);
              }
            }}
          >
            Send test event
          </button>
          <ConfirmButton
            label="Rotate secret"
            danger={false}
            question="Issue a new signing secret? The previous one keeps signing alongside it until the next rotation."
            onConfirm={async () => setSecret((await api<RotatedEndpoint>('POST', `${path}/rotate-secret`)).secret)}
          />
          <DeleteAndReturn
            label="Delete endpoint"
            question="Delete this endpoint? Its delivery log goes with it and nothing more is sent to it."
            path={path}
            back="/webhooks"
          />
        </>
      }
    >
      <p>
        <Link to="/webhooks">All endpoints</Link>
      </p>
      {secret && <SecretOnce label="New signing secret" value={secret} onDone={() => setSecret(undefined)} />}
      <ErrorBanner error={testError} />
      {test && (
        <div className={test.delivered ? 'banner banner-success' : 'banner banner-error'} role="status">
          Test event {test.delivered ? 'delivered' : 'not delivered'}
          {test.status_code !== null && ` (HTTP ${test.status_code})`}
          {test.error && `: ${test.error}`}
          {test.blocked_by_policy && ' (the address is not public: blocked)'}
        </div>
      )}
      {!endpoint.enabled && endpoint.disabled_reason && (
        <ErrorBanner error={endpoint.disabled_reason} title="Disabled." />
      )}
      <Section title="Settings">
        {saved && <Notice>Endpoint saved.</Notice>}
        <Form
          label="Endpoint settings"
          submitLabel="Save"
          onSubmit={async (values) => {
            setSaved(false);
            await api('PATCH', path, {
              description: values.description ?? '',
              event_types: checkedOf(values.event_types),
              enabled: values.enabled === 'true',
            } satisfies Body<'/tenants/webhooks/{id}', 'patch'>);
            setSaved(true);
            endpoints.reload();
          }}
        >
          <Field name="description" label="Description" defaultValue={endpoint.description} />
          <Field
            name="enabled"
            label="State"
            defaultValue={String(endpoint.enabled)}
            options={[
              { value: 'true', label: 'Enabled' },
              { value: 'false', label: 'Paused' },
            ]}
            hint="Re-enabling clears the failure counter and sends waiting deliveries when due."
          />
          <EventChoices checked={endpoint.event_types} />
        </Form>
      </Section>
      <DeliveryLog endpointId={endpoint.id} />
    </Page>
  );
}

function Webhooks() {
  const { path } = useRoute();
  const id = path.replace(/^\/webhooks\/?/, '');
  return id ? <WebhookDetail key={id} id={decodeURIComponent(id)} /> : <WebhookList />;
}

export const screens: ScreenDef[] = [
  {
    path: '/webhooks/*',
    title: 'Webhooks',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: Webhooks,
  },
];
