import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { ConfirmButton, DataTable, Field, FilterSelect, Form, type FormValues, Notice, Page, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/**
 * GET /api/v1/oauth/resources: a protected resource (RFC 8707 resource identifier, the `aud` of its tokens), and
 * one as registered.
 */
type Resource = Answer<'/oauth/resources'>[number];
type RegisteredResource = Answer<'/oauth/resources', 'post', 201>;

const BASE = '/oauth/resources';

function RenameForm(props: { row: Resource; onDone: () => void }) {
  return (
    <Form
      label={`Rename ${props.row.name}`}
      submitLabel="Rename"
      onSubmit={async (values) => {
        await api('PATCH', `${BASE}/${encodeURIComponent(props.row.id)}`, {
          name: values.name,
        } satisfies Body<'/oauth/resources/{id}', 'patch'>);
        props.onDone();
      }}
      secondary={
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      }
    >
      <Field name="name" label={`New name of ${props.row.identifier}`} defaultValue={props.row.name} required />
    </Form>
  );
}

function OAuthResources() {
  const resources = useApi<Resource[]>(BASE);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<string | undefined>(undefined);
  const [created, setCreated] = useState<RegisteredResource | undefined>(undefined);
  const [state] = useQueryState('state');
  const rows = resources.data?.filter((row) => !state || (state === 'enabled') === row.enabled);
  const renamed = resources.data?.find((row) => row.id === renaming);
  return (
    <Page
      title="OAuth resources"
      description="APIs that tokens of this organization may be minted for (the resource parameter, RFC 8707)."
      actions={
        <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
          Register resource
        </button>
      }
    >
      {created && <Notice>Resource {created.identifier} registered.</Notice>}
      {creating && (
        <Section title="Register a resource">
          <Form
            label="Register a protected resource"
            submitLabel="Register"
            onSubmit={async (values: FormValues<'identifier' | 'name' | 'enabled'>) => {
              const resource = await api<RegisteredResource>('POST', BASE, {
                identifier: values.identifier,
                name: values.name,
                enabled: values.enabled === 'true',
              } satisfies Body<'/oauth/resources', 'post'>);
              setCreated(resource);
              setCreating(false);
              resources.reload();
            }}
            secondary={
              <button type="button" className="button" onClick={() => setCreating(false)}>
                Cancel
              </button>
            }
          >
            <Field
              name="identifier"
              label="Identifier"
              required
              placeholder="https://api.example.com/"
              hint="An absolute URI without fragment, matched exactly; fixed once registered."
            />
            <Field name="name" label="Name" required />
            <Field
              name="enabled"
              label="State"
              options={[
                { value: 'true', label: 'Enabled' },
                { value: 'false', label: 'Disabled' },
              ]}
            />
          </Form>
        </Section>
      )}
      {renamed && (
        <Section title="Rename a resource">
          <RenameForm
            row={renamed}
            onDone={() => {
              setRenaming(undefined);
              resources.reload();
            }}
          />
        </Section>
      )}
      <Section title="Resources">
        <div className="filter-bar">
          <FilterSelect
            param="state"
            label="Show"
            options={[
              { value: '', label: 'All resources' },
              { value: 'enabled', label: 'Enabled' },
              { value: 'disabled', label: 'Disabled' },
            ]}
          />
        </div>
        <DataTable<Resource>
          caption="OAuth resources"
          rows={rows}
          loading={resources.loading}
          error={resources.error}
          rowKey={(row) => row.id}
          empty={state ? 'No resource matches this filter.' : 'No resources registered yet.'}
          columns={[
            { key: 'name', header: 'Name', render: (row) => row.name },
            {
              key: 'identifier',
              header: 'Identifier',
              render: (row) => <code className="wrap-anywhere">{row.identifier}</code>,
            },
            { key: 'state', header: 'State', render: (row) => (row.enabled ? 'Enabled' : 'Disabled') },
            { key: 'created', header: 'Registered', render: (row) => when(row.created_at) },
            {
              key: 'actions',
              header: 'Actions',
              render: (row) => (
                <div className="row-actions">
                  <button
                    type="button"
                    className="button"
                    aria-label={`Rename ${row.name}`}
                    onClick={() => setRenaming(row.id)}
                  >
                    Rename
                  </button>
                  <ConfirmButton
                    label={row.enabled ? 'Disable' : 'Enable'}
                    danger={row.enabled}
                    ariaLabel={`${row.enabled ? 'Disable' : 'Enable'} ${row.name}`}
                    question={
                      row.enabled
                        ? `Disable ${row.identifier}? Token requests naming it are refused (invalid_target) at once.`
                        : `Enable ${row.identifier}? Tokens can be minted for it again.`
                    }
                    onConfirm={async () => {
                      await api('PATCH', `${BASE}/${encodeURIComponent(row.id)}`, {
                        enabled: !row.enabled,
                      } satisfies Body<'/oauth/resources/{id}', 'patch'>);
                      resources.reload();
                    }}
                  />
                </div>
              ),
            },
          ]}
        />
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/oauth/resources',
    title: 'OAuth resources',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: OAuthResources,
  },
];
