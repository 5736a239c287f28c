import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { browserSessionId } from '../auth';
import { useSession } from '../session';
import { ConfirmButton, DataTable, EmptyState, ErrorBanner, Field, Form, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/dates';
import { aimedAt, MfaManagement, type MfaStatus } from './account-mfa';
import type { ScreenDef } from './types';

/** GET /api/v1/me/profile. */
type Profile = Answer<'/me/profile'>;
/** GET /api/v1/me/sessions: one of the person's sessions. */
type SessionRow = Answer<'/me/sessions'>['sessions'][number];
/** GET /api/v1/webauthn/credentials: one of the person's passkeys. */
type Passkey = Answer<'/webauthn/credentials'>[number];
/** GET /api/v1/me/connected-apps: one application the person has granted access. */
type ConnectedApp = Answer<'/me/connected-apps'>['connected_apps'][number];

/** The profile's names: each a field, read-only while the identity provider manages the profile. */
const NAME_FIELDS = [
  { name: 'name', label: 'Full name', autoComplete: 'name' },
  { name: 'given_name', label: 'Given name', autoComplete: 'given-name' },
  { name: 'family_name', label: 'Family name', autoComplete: 'family-name' },
] as const satisfies readonly { name: keyof Body<'/me/profile', 'patch'>; label: string; autoComplete: string }[];

function ProfileSection() {
  const profile = useApi<Profile>('/me/profile');
  const [saved, setSaved] = useState(false);
  const data = profile.data;
  return (
    <Section title="Profile">
      {profile.loading && !data && <Loading />}
      <ErrorBanner error={profile.error} />
      {data && (
        <>
          {saved && <Notice>Profile saved.</Notice>}
          <Form
            label="Profile"
            submitLabel="Save profile"
            onSubmit={async (values) => {
              setSaved(false);
              await api(
                'PATCH',
                '/me/profile',
                Object.fromEntries(NAME_FIELDS.map((field) => [field.name, values[field.name] || null])) satisfies Body<
                  '/me/profile',
                  'patch'
                >,
              );
              setSaved(true);
              profile.reload();
            }}
          >
            <Field name="email" label="Email" type="email" defaultValue={data.email} readOnly />
            {NAME_FIELDS.map((field) => (
              <Field
                key={field.name}
                name={field.name}
                label={field.label}
                defaultValue={data[field.name] ?? ''}
                readOnly={!data.editable}
                autoComplete={field.autoComplete}
              />
            ))}
            {!data.editable && <p className="hint">Your identity provider manages your profile.</p>}
          </Form>
        </>
      )}
    </Section>
  );
}

function SessionsSection() {
  const sessions = useApi<Answer<'/me/sessions'>>('/me/sessions');
  const browserSession = browserSessionId();
  const ownSession = (row: SessionRow) => row.current || row.session_id === browserSession;
  return (
    <Section title="Sessions">
      <DataTable<SessionRow>
        caption="Your sessions"
        pageParam="sessions_page"
        rows={sessions.data?.sessions}
        loading={sessions.loading}
        error={sessions.error}
        rowKey={(row) => row.session_id}
        empty="No live sessions."
        columns={[
          {
            key: 'what',
            header: 'Session',
            render: (row) => (
              <>
                {row.application ? row.application.name : 'Sign-in'}
                {row.current && <span className="badge">This console</span>}
                {row.session_id === browserSession && <span className="badge">This browser</span>}
              </>
            ),
          },
          { key: 'agent', header: 'Device', render: (row) => row.user_agent ?? '—' },
          { key: 'methods', header: 'Methods', render: (row) => row.methods.join(', ') || '—' },
          { key: 'last', header: 'Last used', render: (row) => when(row.last_used_at) },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) =>
              ownSession(row) ? (
                <span className="muted">Use Sign out</span>
              ) : (
                <ConfirmButton
                  label="Revoke"
                  ariaLabel={`Revoke session started ${when(row.created_at)}`}
                  question="Revoke this session? That device or application is signed out at once."
                  onConfirm={async () => {
                    await api('DELETE', `/me/sessions/${encodeURIComponent(row.session_id)}`);
                    sessions.reload();
                  }}
                />
              ),
          },
        ]}
      />
    </Section>
  );
}

function SecuritySection() {
  const mfa = useApi<MfaStatus>('/mfa/status');
  const passkeys = useApi<Passkey[]>('/webauthn/credentials');
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [removed, setRemoved] = useState('');
  return (
    <Section title="Sign-in security">
      <h3>Two-step verification</h3>
      <MfaManagement status={mfa.data} error={mfa.error} loading={mfa.loading} reload={mfa.reload} />
      <h3>Passkeys</h3>
      {removed && <Notice>{removed}</Notice>}
      <DataTable<Passkey>
        caption="Your passkeys"
        pageParam="passkeys_page"
        rows={passkeys.data}
        loading={passkeys.loading}
        error={passkeys.error}
        rowKey={(row) => row.id}
        empty={
          <EmptyState title="No passkeys yet.">
            <p>
              <a href="/account/passkeys">Add a passkey</a> on the account security page.
            </p>
          </EmptyState>
        }
        columns={[
          { key: 'name', header: 'Name', render: (row) => row.name },
          { key: 'created', header: 'Added', render: (row) => when(row.created_at) },
          { key: 'used', header: 'Last used', render: (row) => when(row.last_used_at) },
          { key: 'synced', header: 'Synced', render: (row) => (row.backed_up ? 'Yes' : 'No') },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) => (
              <ConfirmButton
                label="Remove"
                ariaLabel={`Remove passkey ${row.name}`}
                question={`Remove the passkey ${row.name}? It can no longer sign you in. You confirm with your password next.`}
                confirmLabel="Continue"
                onConfirm={() => {
                  setRemoved('');
                  setRemoving(row);
                }}
              />
            ),
          },
        ]}
      />
      {removing && (
        <Form
          key={removing.id}
          label={`Remove passkey ${removing.name}`}
          submitLabel="Remove passkey"
          danger
          onSubmit={async (values) => {
            // The API asks for the password when the account has one (docs/passkeys.md).
            await aimedAt(
              'password',
              api('POST', `/webauthn/credentials/${encodeURIComponent(removing.id)}/remove`, {
                ...(values.password ? { password: values.password } : {}),
              } satisfies Body<'/webauthn/credentials/{id}/remove', 'post'>),
            );
            setRemoved(`Passkey ${removing.name} removed.`);
            setRemoving(null);
            passkeys.reload();
          }}
        >
          <Field
            name="password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            hint="Leave it empty only if your account has no password."
          />
        </Form>
      )}
      {removing && (
        <button type="button" className="button" onClick={() => setRemoving(null)}>
          Keep the passkey
        </button>
      )}
      <p>
        <a href="/account/passkeys">Add or manage passkeys</a> on the account security page.
      </p>
    </Section>
  );
}

function ConnectedAppsSection() {
  const apps = useApi<Answer<'/me/connected-apps'>>('/me/connected-apps');
  return (
    <Section title="Connected apps">
      <DataTable<ConnectedApp>
        caption="Applications you allowed"
        pageParam="apps_page"
        rows={apps.data?.connected_apps}
        loading={apps.loading}
        error={apps.error}
        rowKey={(row) => row.client_id}
        empty="No application holds your consent."
        columns={[
          { key: 'name', header: 'Application', render: (row) => row.name },
          { key: 'scopes', header: 'Access', render: (row) => row.scopes.join(', ') },
          { key: 'granted', header: 'Allowed', render: (row) => when(row.granted_at) },
          {
            key: 'actions',
            header: 'Actions',
            render: (row) => (
              <ConfirmButton
                label="Revoke"
                ariaLabel={`Revoke access of ${row.name}`}
                question={`Revoke the access of ${row.name}? It is signed out and must ask for your consent again.`}
                onConfirm={async () => {
                  await api('DELETE', `/me/connected-apps/${encodeURIComponent(row.client_id)}`);
                  apps.reload();
                }}
              />
            ),
          },
        ]}
      />
    </Section>
  );
}

function MyAccount() {
  const session = useSession();
  return (
    <Page title="My account" description={`Signed in to ${session.tenant.slug} as ${session.me.role}.`}>
      <ProfileSection />
      <SessionsSection />
      <SecuritySection />
      <ConnectedAppsSection />
    </Page>
  );
}

export const screens: ScreenDef[] = [
  { path: '/account', title: 'My account', group: 'You', visible: () => true, component: MyAccount },
];
