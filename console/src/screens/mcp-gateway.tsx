import { useState } from 'react';
import { type Answer, type ApiError, api, type Body, useApi } from '../api';
import { Link, navigate, useRoute } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, EmptyState, ErrorBanner, Field, Form, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

// docs/mcp.md "The tool gateway": the organization's upstream MCP servers and their tool allow-lists.

/** GET /mcp/servers/{server_id}: one upstream server with its tool allow-list. */
type Server = Answer<'/mcp/servers/{server_id}'>;
type Tool = Server['tools'][number];

const BASE = '/mcp/servers';
const ROOT = '/mcp-gateway';

/** The gateway is dormant unless MCP_GATEWAY_ENABLED: every route answers 404 then. */
function Dormant(props: { error?: ApiError }) {
  if (props.error?.status === 404)
    return (
      <EmptyState title="The MCP tool gateway is not enabled on this service.">
        <p className="muted">An operator turns it on with MCP_GATEWAY_ENABLED=true.</p>
      </EmptyState>
    );
  return <ErrorBanner error={props.error} />;
}

const numberOr = (text: string | undefined) => (text?.trim() ? Number(text) : undefined);

function RegisterServer(props: { onDone: (server: Server) => void; onCancel: () => void }) {
  return (
    <Section title="Register an upstream MCP server">
      <Form
        label="Register an MCP server"
        submitLabel="Register server"
        onSubmit={async (values) => {
          const server = await api<Answer<'/mcp/servers', 'post', 201>>('POST', BASE, {
            name: values.name,
            upstream_url: values.upstream_url,
            ...(values.description?.trim() ? { description: values.description } : {}),
            max_calls_per_minute: numberOr(values.max_calls_per_minute),
            max_calls_per_day: numberOr(values.max_calls_per_day),
          });
          props.onDone(server);
        }}
        secondary={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <Field
          name="name"
          label="Name"
          required
          hint="A lowercase slug (a-z, 0-9, inner hyphens): agents call /mcp/call/<name>. It cannot change later."
        />
        <Field
          name="upstream_url"
          label="Upstream URL"
          required
          placeholder="https://mcp.example.net/mcp"
          hint="https on port 443 with a public host name; where it resolves is checked on every call."
        />
        <Field name="description" label="Description" />
        <Field name="max_calls_per_minute" label="Calls per minute (cap)" type="number" placeholder="default" />
        <Field name="max_calls_per_day" label="Calls per day (cap)" type="number" placeholder="default" />
      </Form>
    </Section>
  );
}

function ServerList() {
  const session = useSession();
  const manage = session.can('mcp:servers:manage');
  const servers = useApi<Answer<'/mcp/servers'>>(BASE);
  const [registering, setRegistering] = useState(false);
  const dormant = servers.error?.status === 404;
  return (
    <Page
      title="MCP gateway"
      description="Upstream MCP servers your agents may call through the service, with their tool allow-lists and caps."
      actions={
        manage && !dormant ? (
          <button type="button" className="button primary" onClick={() => setRegistering(true)} disabled={registering}>
            Register server
          </button>
        ) : undefined
      }
    >
      {registering && (
        <RegisterServer onDone={(server) => navigate(`${ROOT}/${server.id}`)} onCancel={() => setRegistering(false)} />
      )}
      {servers.error ? (
        <Dormant error={servers.error} />
      ) : (
        <Section title="Servers">
          <DataTable<Server>
            caption="MCP servers"
            rows={servers.data?.servers}
            loading={servers.loading}
            rowKey={(row) => row.id}
            empty="No MCP servers registered yet."
            columns={[
              { key: 'name', header: 'Name', render: (row) => <Link to={`${ROOT}/${row.id}`}>{row.name}</Link> },
              { key: 'url', header: 'Upstream', render: (row) => <code>{row.upstream_url}</code> },
              { key: 'state', header: 'State', render: (row) => (row.enabled ? 'Enabled' : 'Disabled') },
              {
                key: 'tools',
                header: 'Allowed tools',
                numeric: true,
                render: (row) => row.tools.filter((tool) => tool.allowed).length,
              },
              {
                key: 'caps',
                header: 'Caps',
                render: (row) => `${row.max_calls_per_minute}/min, ${row.max_calls_per_day}/day`,
              },
            ]}
          />
        </Section>
      )}
    </Page>
  );
}

function ToolsSection(props: { server: Server; manage: boolean; onChange: (server?: Server) => void }) {
  const path = `${BASE}/${encodeURIComponent(props.server.id)}/tools`;
  return (
    <Section title="Tool allow-list">
      <p className="muted">
        tools/list through the gateway shows the allowed tools; a tools/call of another tool, or of one whose risk is
        above the calling agent's risk ceiling, is refused.
      </p>
      <DataTable<Tool>
        caption="Tools"
        rows={props.server.tools}
        rowKey={(row) => row.name}
        pageParam="tools"
        empty="No tool listed: the gateway allows none."
        columns={[
          { key: 'name', header: 'Tool', render: (row) => <code>{row.name}</code> },
          { key: 'allowed', header: 'Allowed', render: (row) => (row.allowed ? 'Allowed' : 'Blocked') },
          { key: 'risk', header: 'Risk (0-100)', numeric: true, render: (row) => row.risk },
          ...(props.manage
            ? [
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (row: Tool) => (
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove tool ${row.name}`}
                      question={`Remove ${row.name} from the allow-list? Agents can no longer call it.`}
                      onConfirm={async () => {
                        await api('DELETE', `${path}/${encodeURIComponent(row.name)}`);
                        props.onChange();
                      }}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      {props.manage && (
        <Form
          label="Add or change a tool"
          submitLabel="Save tool"
          onSubmit={async (values) => {
            const tool: Tool = {
              name: values.name?.trim() ?? '',
              allowed: values.allowed !== 'false',
              risk: Number(values.risk),
            };
            // The API replaces the whole list: the others are sent unchanged.
            const tools = [...props.server.tools.filter((t) => t.name !== tool.name), tool];
            props.onChange(
              await api<Answer<'/mcp/servers/{server_id}/tools', 'put'>>('PUT', path, {
                tools,
              } satisfies Body<'/mcp/servers/{server_id}/tools', 'put'>),
            );
          }}
        >
          <Field
            name="name"
            label="Tool name"
            required
            hint="A tool the upstream lists; an existing one is replaced."
          />
          <Field
            name="allowed"
            label="Access"
            options={[
              { value: 'true', label: 'Allowed' },
              { value: 'false', label: 'Blocked' },
            ]}
          />
          <Field
            name="risk"
            label="Risk (0-100)"
            type="number"
            required
            defaultValue="10"
            hint="Judged against the calling agent's risk ceiling."
          />
        </Form>
      )}
    </Section>
  );
}

function ServerDetail(props: { id: string }) {
  const session = useSession();
  const manage = session.can('mcp:servers:manage');
  const path = `${BASE}/${encodeURIComponent(props.id)}`;
  const server = useApi<Server>(path);
  const [saved, setSaved] = useState('');
  const data = server.data;
  return (
    <Page
      title="MCP server"
      description={data ? `${data.name}: ${data.upstream_url}` : undefined}
      actions={
        manage && data ? (
          <ConfirmButton
            label="Delete server"
            question={`Delete ${data.name} and its allow-list? Agents can no longer call it.`}
            onConfirm={async () => {
              await api('DELETE', path);
              navigate(ROOT);
            }}
          />
        ) : undefined
      }
    >
      <p>
        <Link to={ROOT}>All MCP servers</Link>
      </p>
      {server.loading && !data && <Loading />}
      {server.error && <Dormant error={server.error} />}
      {saved && <Notice>{saved}</Notice>}
      {data && (
        <>
          <Section title="Server">
            <dl className="facts">
              <dt>Name</dt>
              <dd>{data.name}</dd>
              <dt>Upstream</dt>
              <dd>
                <code>{data.upstream_url}</code>
              </dd>
              <dt>State</dt>
              <dd>{data.enabled ? 'Enabled' : 'Disabled'}</dd>
              <dt>Caps</dt>
              <dd>
                {data.max_calls_per_minute} calls per minute, {data.max_calls_per_day} per day
              </dd>
              <dt>Registered</dt>
              <dd>{when(data.created_at)}</dd>
            </dl>
            {manage && (
              <Form
                key={data.updated_at}
                label="Server settings"
                submitLabel="Save"
                onSubmit={async (values) => {
                  await api<Answer<'/mcp/servers/{server_id}', 'patch'>>('PATCH', path, {
                    enabled: values.enabled === 'true',
                    upstream_url: values.upstream_url,
                    description: values.description?.trim() ? values.description : null,
                    max_calls_per_minute: numberOr(values.max_calls_per_minute),
                    max_calls_per_day: numberOr(values.max_calls_per_day),
                  } satisfies Body<'/mcp/servers/{server_id}', 'patch'>);
                  setSaved('Server saved.');
                  server.reload();
                }}
              >
                <Field
                  name="enabled"
                  label="State"
                  defaultValue={String(data.enabled)}
                  options={[
                    { value: 'true', label: 'Enabled' },
                    { value: 'false', label: 'Disabled: every call refused' },
                  ]}
                />
                <Field name="upstream_url" label="Upstream URL" required defaultValue={data.upstream_url} />
                <Field name="description" label="Description" defaultValue={data.description ?? ''} />
                <Field
                  name="max_calls_per_minute"
                  label="Calls per minute (cap)"
                  type="number"
                  required
                  defaultValue={String(data.max_calls_per_minute)}
                />
                <Field
                  name="max_calls_per_day"
                  label="Calls per day (cap)"
                  type="number"
                  required
                  defaultValue={String(data.max_calls_per_day)}
                />
              </Form>
            )}
          </Section>
          <ToolsSection
            server={data}
            manage={manage}
            onChange={() => {
              setSaved('Allow-list saved.');
              server.reload();
            }}
          />
        </>
      )}
    </Page>
  );
}

function McpGateway() {
  const { path } = useRoute();
  const id = path.replace(/^\/mcp-gateway\/?/, '');
  return id ? <ServerDetail id={id} /> : <ServerList />;
}

export const screens: ScreenDef[] = [
  {
    path: `${ROOT}/*`,
    title: 'MCP gateway',
    group: 'Agents',
    visible: (s) => s.can('mcp:servers:read'),
    component: McpGateway,
  },
];
