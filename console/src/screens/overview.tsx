import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useSession } from '../session';
import { BarChart, EmptyState, ErrorBanner, Field, Form, type FormValues, Loading, Notice, Page, Section } from '../ui';
import type { ScreenDef } from './types';

/** GET /entitlements: the features and caps of the organization's plan. */
type Entitlements = Answer<'/entitlements'>;
/** GET /members: one member of the roster. */
type Member = Answer<'/members'>[number];

const CAP_LABELS: Record<string, string> = {
  seats: 'Seats',
  mau: 'Monthly active users',
  api_calls_monthly: 'API calls per month',
  oauth_client_requests_per_5min: 'OAuth client requests per 5 minutes',
  agent_writes_per_hour: 'Agent writes per hour',
};

const capText = (value: number | null | undefined) =>
  value === null || value === undefined ? 'Unlimited' : value.toLocaleString('en');

function Overview() {
  const session = useSession();
  const entitlements = useApi<Entitlements>('/entitlements');
  const members = useApi<Member[]>(session.can('members:read') ? '/members' : null, { limit: 500 });
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<string | undefined>(undefined);

  const active = members.data?.filter((m) => m.status === 'active') ?? [];
  const byRole = new Map<string, number>();
  for (const member of active) byRole.set(member.role, (byRole.get(member.role) ?? 0) + 1);
  const seats = entitlements.data?.caps.seats;

  return (
    <Page
      title="Organization overview"
      description={`Organization ${session.tenant.slug}`}
      actions={
        session.can('members:manage') && (
          <button type="button" className="button primary" onClick={() => setInviting(true)} disabled={inviting}>
            Invite a member
          </button>
        )
      }
    >
      {invited && <Notice>Invitation sent to {invited}.</Notice>}
      {inviting && session.can('members:manage') && (
        <Section title="Invite a member">
          <Form
            label="Invite a member"
            submitLabel="Send invitation"
            onSubmit={async (values: FormValues<'email' | 'role'>) => {
              await api('POST', '/members/invites', { email: values.email, role: values.role } satisfies Body<
                '/members/invites',
                'post'
              >);
              setInvited(values.email);
              setInviting(false);
              members.reload();
            }}
            secondary={
              <button type="button" className="button" onClick={() => setInviting(false)}>
                Cancel
              </button>
            }
          >
            <Field name="email" label="Email address" type="email" required autoComplete="off" />
            <Field
              name="role"
              label="Role"
              options={[
                { value: 'member', label: 'Member' },
                { value: 'admin', label: 'Admin' },
                { value: 'auditor', label: 'Auditor' },
              ]}
            />
          </Form>
        </Section>
      )}
      <div className="grid">
        <Section title="Plan">
          {entitlements.loading && <Loading />}
          <ErrorBanner error={entitlements.error} />
          {entitlements.data && (
            <dl className="facts">
              <dt>Plan</dt>
              <dd data-testid="plan-name">{entitlements.data.name}</dd>
              <dt>Seats</dt>
              <dd data-testid="seats">
                {session.can('members:read') && members.data
                  ? `${active.length} of ${capText(seats)} used`
                  : capText(seats)}
              </dd>
            </dl>
          )}
        </Section>
        <Section title="Limits">
          {entitlements.data && (
            <dl className="facts">
              {Object.entries(entitlements.data.caps).map(([key, value]) => (
                <div key={key} className="fact">
                  <dt>{CAP_LABELS[key] ?? key}</dt>
                  <dd>{capText(value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </Section>
      </div>
      <Section title="Entitlements">
        {entitlements.data &&
          (entitlements.data.features.length === 0 ? (
            <EmptyState title="This plan includes no optional features." />
          ) : (
            <ul className="tags" aria-label="Features of the plan">
              {entitlements.data.features.map((feature) => (
                <li key={feature} className="tag">
                  {feature}
                </li>
              ))}
            </ul>
          ))}
      </Section>
      {session.can('members:read') && (
        <Section title="Members by role">
          {members.loading && !members.data && <Loading />}
          <ErrorBanner error={members.error} />
          {members.data && (
            <BarChart
              title="Active members by role"
              unit="members"
              data={[...byRole].sort((a, b) => b[1] - a[1]).map(([label, value]) => ({ label, value }))}
            />
          )}
        </Section>
      )}
    </Page>
  );
}

export const screens: ScreenDef[] = [
  { path: '/', title: 'Overview', group: 'Organization', visible: () => true, component: Overview },
];
