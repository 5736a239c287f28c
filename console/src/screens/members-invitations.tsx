import { useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Field, Form, type FormValues, Notice, Page, Section } from '../ui';
import { Filters, grantableRoleOptions, roleName, useCatalog, when } from '../ui/org-kit';
import type { ScreenDef } from './types';

/** GET /api/v1/members/invites: a pending, unexpired invitation. */
type Invite = Answer<'/members/invites'>[number];
/** POST /api/v1/members/invites: the invitation as sent (`reissued` when a pending one was issued again). */
type SentInvite = Answer<'/members/invites', 'post', 201>;

function Invitations() {
  const session = useSession();
  const manage = session.can('members:manage');
  const catalog = useCatalog();
  const invites = useApi<Invite[]>('/members/invites');
  const [search, setSearch] = useQueryState('q');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  // A new Form after each invitation clears its inputs.
  const [formKey, setFormKey] = useState(0);
  const options = grantableRoleOptions(session, catalog.data);

  const needle = search.trim().toLowerCase();
  const rows = invites.data?.filter((invite) => !needle || invite.email.toLowerCase().includes(needle));

  return (
    <Page
      title="Invitations"
      description="Invitations waiting to be accepted. The mail's link works for 7 days; resending issues a new link and restarts the 7 days."
    >
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      {manage && (
        <Section title="Invite a member">
          <Form
            key={formKey}
            label="Invite a member"
            submitLabel="Send invitation"
            onSubmit={async (values: FormValues<'email' | 'role'>) => {
              setNotice(undefined);
              setError(undefined);
              const sent = await api<SentInvite>('POST', '/members/invites', {
                email: values.email,
                role: values.role,
              } satisfies Body<'/members/invites', 'post'>);
              setNotice(
                sent.reissued
                  ? `The pending invitation of ${sent.email} was issued again with a new link.`
                  : `Invitation sent to ${sent.email}.`,
              );
              setFormKey((n) => n + 1);
              invites.reload();
            }}
          >
            <Field name="email" label="Email address" type="email" required autoComplete="off" />
            <Field
              name="role"
              label="Role"
              defaultValue="member"
              options={options}
              hint="Only roles whose permissions you hold yourself are offered. Pending invitations count against the plan's seats."
            />
          </Form>
        </Section>
      )}
      <Section title="Pending invitations">
        <Filters label="Filter invitations">
          <div className="field">
            <label htmlFor="invites-search">Email contains</label>
            <input
              id="invites-search"
              type="search"
              defaultValue={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </Filters>
        <DataTable<Invite>
          caption="Pending invitations"
          rows={rows}
          loading={invites.loading}
          error={invites.error}
          rowKey={(row) => row.invite_id}
          empty={needle ? 'No pending invitation matches.' : 'No pending invitations.'}
          columns={[
            { key: 'email', header: 'Email', render: (row) => <span className="org-wrap">{row.email}</span> },
            { key: 'role', header: 'Role', render: (row) => roleName(catalog.data, row.role) },
            {
              key: 'expires',
              header: 'Link expires',
              render: (row) => (
                <>
                  {when(row.expires_at)}
                  {row.reissued && <span className="badge">Resent</span>}
                </>
              ),
            },
            ...(manage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: Invite) => (
                      <div className="org-inline">
                        <button
                          type="button"
                          className="button"
                          aria-label={`Resend the invitation of ${row.email}`}
                          onClick={async () => {
                            setNotice(undefined);
                            setError(undefined);
                            try {
                              await api('POST', '/members/invites', {
                                email: row.email,
                                role: row.role,
                              } satisfies Body<'/members/invites', 'post'>);
                              setNotice(`A new link was sent to ${row.email}; the previous one no longer works.`);
                              invites.reload();
                            } catch (reason) {
                              setError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
                            }
                          }}
                        >
                          Resend
                        </button>
                        <ConfirmButton
                          label="Revoke"
                          ariaLabel={`Revoke the invitation of ${row.email}`}
                          question={`Revoke the invitation of ${row.email}? Its link stops working at once.`}
                          onConfirm={async () => {
                            await api('DELETE', `/members/invites/${encodeURIComponent(row.invite_id)}`);
                            setError(undefined);
                            setNotice(`The invitation of ${row.email} was revoked.`);
                            invites.reload();
                          }}
                        />
                      </div>
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

export const screens: ScreenDef[] = [
  {
    path: '/invitations',
    title: 'Invitations',
    group: 'Organization',
    visible: (s) => s.can('members:read'),
    component: Invitations,
  },
];
