import { useState } from 'react';
import { type Answer, api, useApi } from '../api';
import { useSession } from '../session';
import { ConfirmButton, DataTable, Field, Form, Page, SecretOnce, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** GET /operator/licences: a licence as listed, never the signed bundle (docs/operator.md "Licences"). */
type LicenceView = Answer<'/operator/licences'>[number];
/** GET /operator/distribution-credentials: a credential as listed, never the secret. */
type CredentialView = Answer<'/operator/distribution-credentials'>[number];
/** GET /operator/releases: a release of the catalogue, yanked ones included. */
type ReleaseView = Answer<'/operator/releases'>[number];

const PLANS = ['free', 'pro', 'enterprise'];
const optionalInt = (raw: string | undefined) => (raw?.trim() ? Number(raw) : undefined);
const lines = (raw: string | undefined) => (raw ?? '').split(/[\s,]+/).filter(Boolean);

function Licences() {
  const session = useSession();
  const canManage = session.can('operator:manage');
  const list = useApi<LicenceView[]>('/operator/licences');
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<{ licensee: string; jwt: string } | undefined>(undefined);
  return (
    <Page
      title="Licences"
      description="Licences of self-hosted installations: the signed bundle is shown once, at issue."
      actions={
        canManage && (
          <button type="button" className="button primary" onClick={() => setIssuing(true)} disabled={issuing}>
            Issue licence
          </button>
        )
      }
    >
      {issued && (
        <SecretOnce label={`Licence for ${issued.licensee}`} value={issued.jwt} onDone={() => setIssued(undefined)} />
      )}
      {issuing && (
        <Section title="Issue a licence">
          <Form
            label="Issue a licence"
            submitLabel="Issue licence"
            onSubmit={async (values) => {
              const features = lines(values.features_extra);
              const answer = await api<Answer<'/operator/licences', 'post', 201>>('POST', '/operator/licences', {
                licensee: values.licensee,
                install_id: values.install_id,
                plan_code: values.plan_code,
                term_days: Number(values.term_days),
                maintenance_days: optionalInt(values.maintenance_days),
                ...(features.length ? { features_extra: features } : {}),
                ...(values.tenant_id?.trim() ? { tenant_id: values.tenant_id.trim() } : {}),
              });
              setIssued({ licensee: answer.licensee, jwt: answer.licence_jwt });
              setIssuing(false);
              list.reload();
            }}
            secondary={
              <button type="button" className="button" onClick={() => setIssuing(false)}>
                Cancel
              </button>
            }
          >
            <Field name="licensee" label="Licensee" required />
            <Field name="install_id" label="Installation id" required />
            <Field
              name="plan_code"
              label="Plan"
              defaultValue="enterprise"
              options={PLANS.map((p) => ({ value: p, label: p }))}
            />
            <Field name="term_days" label="Term (days)" type="number" required defaultValue="365" />
            <Field name="maintenance_days" label="Maintenance (days)" type="number" hint="Empty: the term." />
            <Field
              name="features_extra"
              label="Extra features"
              hint="Feature codes beyond the plan, separated by spaces or commas."
            />
            <Field name="tenant_id" label="Organization id" hint="Optional: the organization the licence is for." />
          </Form>
        </Section>
      )}
      <Section title="Licences">
        <DataTable<LicenceView>
          caption="Licences"
          rows={list.data}
          loading={list.loading}
          error={list.error}
          rowKey={(row) => row.id}
          empty="No licences issued yet."
          columns={[
            { key: 'licensee', header: 'Licensee', render: (row) => row.licensee },
            { key: 'install', header: 'Installation', render: (row) => <code>{row.install_id}</code> },
            { key: 'plan', header: 'Plan', render: (row) => row.plan_code },
            { key: 'status', header: 'State', render: (row) => row.status },
            { key: 'expires', header: 'Expires', render: (row) => when(row.expires_at) },
            { key: 'maintenance', header: 'Maintenance until', render: (row) => when(row.maintenance_expires_at) },
            ...(canManage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: LicenceView) =>
                      row.status === 'revoked' ? (
                        <span className="muted">None</span>
                      ) : (
                        <ConfirmButton
                          label="Revoke"
                          ariaLabel={`Revoke licence of ${row.licensee}`}
                          question={`Revoke the licence of ${row.licensee}? Its distribution credentials stop at once; bundles already issued cannot be recalled.`}
                          onConfirm={async () => {
                            await api('POST', `/operator/licences/${encodeURIComponent(row.id)}/revoke`);
                            list.reload();
                          }}
                        />
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Section>
    </Page>
  );
}

function Credentials() {
  const session = useSession();
  const canManage = session.can('operator:manage');
  const list = useApi<CredentialView[]>('/operator/distribution-credentials');
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<{ label: string; credential: string } | undefined>(undefined);
  return (
    <Page
      title="Distribution credentials"
      description="Release download credentials, each tied to a licence; the credential is shown once."
      actions={
        canManage && (
          <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
            Create credential
          </button>
        )
      }
    >
      {issued && (
        <SecretOnce
          label={`Distribution credential ${issued.label}`}
          value={issued.credential}
          onDone={() => setIssued(undefined)}
        />
      )}
      {creating && (
        <Section title="Create a distribution credential">
          <Form
            label="Create a distribution credential"
            submitLabel="Create credential"
            onSubmit={async (values) => {
              const answer = await api<Answer<'/operator/distribution-credentials', 'post', 201>>(
                'POST',
                '/operator/distribution-credentials',
                {
                  licence_pk: values.licence_pk,
                  label: values.label,
                  expires_days: optionalInt(values.expires_days),
                },
              );
              setIssued({ label: answer.label, credential: answer.credential });
              setCreating(false);
              list.reload();
            }}
            secondary={
              <button type="button" className="button" onClick={() => setCreating(false)}>
                Cancel
              </button>
            }
          >
            <Field name="licence_pk" label="Licence id" required hint="From the Licences screen." />
            <Field name="label" label="Label" required />
            <Field name="expires_days" label="Expires after (days)" type="number" placeholder="365" />
          </Form>
        </Section>
      )}
      <Section title="Credentials">
        <DataTable<CredentialView>
          caption="Distribution credentials"
          rows={list.data}
          loading={list.loading}
          error={list.error}
          rowKey={(row) => row.id}
          empty="No distribution credentials yet."
          columns={[
            { key: 'label', header: 'Label', render: (row) => row.label },
            { key: 'prefix', header: 'Credential', render: (row) => <code>{row.public_prefix}…</code> },
            { key: 'licence', header: 'Licence', render: (row) => <code>{row.licence_pk}</code> },
            { key: 'status', header: 'State', render: (row) => row.status },
            { key: 'expires', header: 'Expires', render: (row) => when(row.expires_at) },
            { key: 'used', header: 'Last used', render: (row) => when(row.last_used_at) },
            ...(canManage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: CredentialView) =>
                      row.status === 'revoked' ? (
                        <span className="muted">None</span>
                      ) : (
                        <ConfirmButton
                          label="Revoke"
                          ariaLabel={`Revoke credential ${row.label}`}
                          question={`Revoke the credential ${row.label}? It never authenticates again.`}
                          onConfirm={async () => {
                            await api(
                              'POST',
                              `/operator/distribution-credentials/${encodeURIComponent(row.id)}/revoke`,
                            );
                            list.reload();
                          }}
                        />
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Section>
    </Page>
  );
}

function Releases() {
  const session = useSession();
  const canManage = session.can('operator:manage');
  const list = useApi<ReleaseView[]>('/operator/releases');
  return (
    <Page title="Releases" description="The release catalogue: a yanked release stays listed, downloads refuse it.">
      <Section title="Releases">
        <DataTable<ReleaseView>
          caption="Releases"
          rows={list.data}
          loading={list.loading}
          error={list.error}
          rowKey={(row) => row.version}
          empty="No releases published yet."
          columns={[
            { key: 'version', header: 'Version', render: (row) => <code>{row.version}</code> },
            { key: 'published', header: 'Published', render: (row) => when(row.published_at) },
            {
              key: 'size',
              header: 'Size (bytes)',
              numeric: true,
              render: (row) => row.size_bytes.toLocaleString('en'),
            },
            { key: 'sha', header: 'SHA-256', render: (row) => <code>{row.checksum_sha256.slice(0, 12)}…</code> },
            {
              key: 'status',
              header: 'State',
              render: (row) => (
                <span data-testid={`release-${row.version}`}>
                  {row.status === 'yanked' ? `Yanked ${when(row.yanked_at)}` : 'Published'}
                </span>
              ),
            },
            ...(canManage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: ReleaseView) =>
                      row.status === 'yanked' ? (
                        <span className="muted">None</span>
                      ) : (
                        <ConfirmButton
                          label="Yank"
                          ariaLabel={`Yank release ${row.version}`}
                          question={`Yank ${row.version}? It stays in the catalogue, but downloads refuse it.`}
                          onConfirm={async () => {
                            await api('POST', `/operator/releases/${encodeURIComponent(row.version)}/yank`);
                            list.reload();
                          }}
                        />
                      ),
                  },
                ]
              : []),
          ]}
        />
      </Section>
    </Page>
  );
}

const operatorReads = (s: Parameters<ScreenDef['visible']>[0]) => s.isPlatformOperator && s.can('operator:read');

export const screens: ScreenDef[] = [
  {
    path: '/operator/licences',
    title: 'Licences',
    group: 'Platform operator',
    visible: operatorReads,
    component: Licences,
  },
  {
    path: '/operator/distribution-credentials',
    title: 'Distribution credentials',
    group: 'Platform operator',
    visible: operatorReads,
    component: Credentials,
  },
  {
    path: '/operator/releases',
    title: 'Releases',
    group: 'Platform operator',
    visible: operatorReads,
    component: Releases,
  },
];
