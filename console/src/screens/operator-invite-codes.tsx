import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, Field, FilterSelect, Form, type FormValues, Page, SecretOnce, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** GET /operator/invite-codes: the codes as listed, never a code itself, only its prefix (docs/onboarding.md). */
type InviteCodes = Answer<'/operator/invite-codes'>;
type InviteCodeView = InviteCodes['invite_codes'][number];
/** POST /operator/invite-codes: the code as issued (shown once). */
type IssuedInviteCode = Answer<'/operator/invite-codes', 'post', 201>;

const BASE = '/operator/invite-codes';
const DOORS = { onboard: 'Agent onboarding', signup: 'Sign-up' } as const;
const STATUS = { issued: 'Issued', consumed: 'Used', revoked: 'Revoked', expired: 'Expired' } as const;

function IssueCode(props: { onIssued: (issued: IssuedInviteCode & { email: string }) => void; onCancel: () => void }) {
  return (
    <Section title="Issue an invite code">
      <Form
        label="Issue an invite code"
        submitLabel="Issue code"
        onSubmit={async (values: FormValues<'email' | 'door' | 'expires_in_days'>) => {
          const days = values.expires_in_days?.trim();
          const issued = await api<IssuedInviteCode>('POST', BASE, {
            email: values.email,
            door: values.door as Body<'/operator/invite-codes', 'post'>['door'],
            ...(days ? { expires_in_days: Number(days) } : {}),
          } satisfies Body<'/operator/invite-codes', 'post'>);
          props.onIssued({ ...issued, email: values.email });
        }}
        secondary={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <Field name="email" label="Email address" type="email" required hint="The code works only for this address." />
        <Field
          name="door"
          label="Door"
          defaultValue="onboard"
          options={[
            { value: 'onboard', label: 'Agent onboarding (POST /onboard/bootstrap)' },
            { value: 'signup', label: 'Sign-up' },
          ]}
        />
        <Field
          name="expires_in_days"
          label="Expires after (days)"
          type="number"
          placeholder="14"
          hint="1 to 365 days; empty: 14 days."
        />
      </Form>
    </Section>
  );
}

function InviteCodes() {
  const session = useSession();
  const codes = useApi<InviteCodes>(BASE);
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<(IssuedInviteCode & { email: string }) | undefined>(undefined);
  const [status] = useQueryState('status');
  const canManage = session.can('operator:manage');
  const rows = codes.data?.invite_codes.filter((code) => !status || code.status === status);
  return (
    <Page
      title="Invite codes"
      description="Onboarding invite codes: while public sign-up is closed, an address needs one to open an organization."
      actions={
        canManage && (
          <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
            Issue invite code
          </button>
        )
      }
    >
      {issued && (
        <SecretOnce
          label={`Invite code for ${issued.email} (expires ${when(issued.expires_at)})`}
          value={issued.code}
          onDone={() => setIssued(undefined)}
        />
      )}
      {creating && (
        <IssueCode
          onIssued={(code) => {
            setIssued(code);
            setCreating(false);
            codes.reload();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <Section title="Codes">
        <div className="filter-bar">
          <FilterSelect
            param="status"
            label="Show"
            options={[
              { value: '', label: 'All codes' },
              { value: 'issued', label: 'Issued' },
              { value: 'consumed', label: 'Used' },
              { value: 'revoked', label: 'Revoked' },
              { value: 'expired', label: 'Expired' },
            ]}
          />
        </div>
        <DataTable<InviteCodeView>
          caption="Invite codes"
          rows={rows}
          loading={codes.loading}
          error={codes.error}
          rowKey={(row) => row.id}
          empty={status ? 'No code matches this filter.' : 'No invite codes yet.'}
          columns={[
            { key: 'email', header: 'Address', render: (row) => row.email },
            { key: 'code', header: 'Code', render: (row) => <code>{row.code_prefix}…</code> },
            { key: 'door', header: 'Door', render: (row) => DOORS[row.door] },
            {
              key: 'status',
              header: 'State',
              render: (row) => (
                <span data-testid={`code-status-${row.id}`}>
                  {STATUS[row.status]}
                  {row.status === 'revoked' && row.revoked_at ? ` ${when(row.revoked_at)}` : ''}
                  {row.status === 'consumed' && row.consumed_at ? ` ${when(row.consumed_at)}` : ''}
                </span>
              ),
            },
            { key: 'created', header: 'Issued', render: (row) => when(row.created_at) },
            { key: 'expires', header: 'Expires', render: (row) => when(row.expires_at) },
            ...(canManage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: InviteCodeView) =>
                      row.status === 'issued' ? (
                        <ConfirmButton
                          label="Revoke"
                          ariaLabel={`Revoke invite code for ${row.email}`}
                          question={`Revoke the invite code for ${row.email}? It can no longer be used.`}
                          onConfirm={async () => {
                            await api('POST', `${BASE}/${encodeURIComponent(row.id)}/revoke`);
                            codes.reload();
                          }}
                        />
                      ) : (
                        <span className="muted">None</span>
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
    path: '/operator/invite-codes',
    title: 'Invite codes',
    group: 'Platform operator',
    // The invite-code routes need operator:manage, listing included.
    visible: (s) => s.isPlatformOperator && s.can('operator:manage'),
    component: InviteCodes,
  },
];
