import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { useQueryState } from '../router';
import { useSession } from '../session';
import {
  BarChart,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Field,
  FilterSelect,
  Form,
  type FormValues,
  Loading,
  Page,
  SecretOnce,
  Section,
} from '../ui';
import { ChoiceGroup, checkedOf, useQuestionInput, when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** docs/api-keys.md: the key view (never the key itself), and the key as issued (shown once). */
type KeyView = Answer<'/tenants/api-keys'>[number];
type IssuedKey = Answer<'/tenants/api-keys', 'post', 201>;
type Usage = Answer<'/tenants/api-keys/usage'>;

const BASE = '/tenants/api-keys';

const stateOf = (key: KeyView, now: number) =>
  key.revoked ? 'revoked' : key.expires_at && Date.parse(key.expires_at) <= now ? 'expired' : 'active';
const STATE_LABELS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

function CreateKey(props: { onIssued: (key: IssuedKey) => void; onCancel: () => void }) {
  const session = useSession();
  // A key's scopes must be among the creator's own permissions: the API refuses any other (403).
  const mine = [...session.permissions].sort();
  return (
    <Section title="Create an API key">
      <Form
        label="Create an API key"
        submitLabel="Create key"
        onSubmit={async (values: FormValues<'label' | 'expires_in_days'>) => {
          const days = values.expires_in_days?.trim();
          const issued = await api<IssuedKey>('POST', BASE, {
            label: values.label,
            scopes: checkedOf(values.scopes),
            ...(values.never === 'on' ? { expires_in_days: null } : days ? { expires_in_days: Number(days) } : {}),
          } satisfies Body<'/tenants/api-keys', 'post'>);
          props.onIssued(issued);
        }}
        secondary={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <Field name="label" label="Label" required hint="What the key is for, e.g. the system that will hold it." />
        <ChoiceGroup
          name="scopes"
          legend="Scopes"
          hint="The key can do exactly this and nothing else. You can grant only permissions you hold yourself."
          choices={mine.map((code) => ({ value: code }))}
        />
        <Field
          name="expires_in_days"
          label="Expires after (days)"
          type="number"
          placeholder="365"
          hint="1 to 3650 days; empty: 365 days, or the organization's maximum if lower."
        />
        <ChoiceGroup name="never" legend="Lifetime" choices={[{ value: 'on', label: 'Never expires' }]} />
      </Form>
    </Section>
  );
}

function RevokeButton(props: { row: KeyView; onDone: () => void }) {
  const reason = useQuestionInput();
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke key ${props.row.label}`}
      question={
        <>
          <p>
            Revoke <strong>{props.row.label}</strong> ({props.row.display_handle})? Every request with it is refused
            from its next one on.
          </p>
          <div className="field">
            <label htmlFor={`reason-${props.row.id}`}>Reason (required)</label>
            <input id={`reason-${props.row.id}`} name="reason" ref={reason.ref} required maxLength={500} />
          </div>
        </>
      }
      onConfirm={async () => {
        await api('POST', `${BASE}/${encodeURIComponent(props.row.id)}/revoke`, {
          reason: reason.value(),
        } satisfies Body<'/tenants/api-keys/{id}/revoke', 'post'>);
        props.onDone();
      }}
    />
  );
}

function UsageSection() {
  const [period, setPeriod] = useQueryState('period');
  const usage = useApi<Usage>(`${BASE}/usage`, { period: period || undefined });
  return (
    <Section title="Usage">
      <form
        className="filter-bar"
        aria-label="Usage period"
        onSubmit={(event) => {
          event.preventDefault();
          const value = new FormData(event.currentTarget).get('period');
          setPeriod(typeof value === 'string' ? value : undefined);
        }}
      >
        <div className="field">
          <label htmlFor="usage-period">Month (YYYY-MM, UTC)</label>
          <input id="usage-period" name="period" defaultValue={period} placeholder="this month" />
        </div>
        <button type="submit" className="button">
          Show
        </button>
      </form>
      {usage.loading && !usage.data && <Loading />}
      <ErrorBanner error={usage.error} />
      {usage.data && (
        <>
          <dl className="facts">
            <dt>Month</dt>
            <dd>{usage.data.period}</dd>
            <dt>Calls</dt>
            <dd data-testid="usage-total">
              {usage.data.total.toLocaleString('en')} of{' '}
              {usage.data.quota === null ? 'unlimited' : usage.data.quota.toLocaleString('en')}
            </dd>
          </dl>
          {usage.data.rows.length > 0 && (
            <BarChart
              title={`Calls per key in ${usage.data.period}`}
              unit="calls"
              data={usage.data.rows.map((row) => ({
                label: row.label ?? row.display_handle ?? row.api_key_id,
                value: row.calls,
              }))}
            />
          )}
        </>
      )}
    </Section>
  );
}

function ApiKeys() {
  const keys = useApi<KeyView[]>(BASE);
  const [creating, setCreating] = useState(false);
  const [issued, setIssued] = useState<IssuedKey | undefined>(undefined);
  const [status] = useQueryState('status');
  const now = Date.now();
  const rows = keys.data?.filter((key) => !status || stateOf(key, now) === status);
  const shown = (key: IssuedKey) => {
    setIssued(key);
    setCreating(false);
    keys.reload();
  };
  return (
    <Page
      title="API keys"
      description="Machine access to the organization: a key acts with exactly its scopes."
      actions={
        <button type="button" className="button primary" onClick={() => setCreating(true)} disabled={creating}>
          Create API key
        </button>
      }
    >
      {issued && (
        <SecretOnce label={`API key ${issued.label}`} value={issued.key} onDone={() => setIssued(undefined)} />
      )}
      {creating && <CreateKey onIssued={shown} onCancel={() => setCreating(false)} />}
      <Section title="Keys">
        <div className="filter-bar">
          <FilterSelect
            param="status"
            label="Show"
            options={[
              { value: '', label: 'All keys' },
              { value: 'active', label: 'Active' },
              { value: 'expired', label: 'Expired' },
              { value: 'revoked', label: 'Revoked' },
            ]}
          />
        </div>
        <DataTable<KeyView>
          caption="API keys"
          rows={rows}
          loading={keys.loading}
          error={keys.error}
          rowKey={(row) => row.id}
          empty={status ? 'No key matches this filter.' : 'No API keys yet.'}
          columns={[
            { key: 'label', header: 'Label', render: (row) => row.label },
            { key: 'handle', header: 'Key', render: (row) => <code>{row.display_handle}</code> },
            { key: 'scopes', header: 'Scopes', render: (row) => row.scopes.join(', ') || 'none' },
            {
              key: 'state',
              header: 'State',
              render: (row) =>
                row.revoked
                  ? `Revoked ${when(row.revoked_at)}${row.reason ? `: ${row.reason}` : ''}`
                  : STATE_LABELS[stateOf(row, now)],
            },
            { key: 'expires', header: 'Expires', render: (row) => (row.expires_at ? when(row.expires_at) : 'Never') },
            { key: 'used', header: 'Last used', render: (row) => when(row.last_used_at) },
            {
              key: 'actions',
              header: 'Actions',
              render: (row) =>
                row.revoked ? (
                  <span className="muted">None</span>
                ) : (
                  <div className="row-actions">
                    {stateOf(row, now) === 'active' && (
                      <ConfirmButton
                        label="Rotate"
                        danger={false}
                        ariaLabel={`Rotate key ${row.label}`}
                        question="Issue a successor with the same scopes? This key keeps working until you revoke it."
                        onConfirm={async () =>
                          shown(await api<IssuedKey>('POST', `${BASE}/${encodeURIComponent(row.id)}/rotate`))
                        }
                      />
                    )}
                    <RevokeButton row={row} onDone={keys.reload} />
                  </div>
                ),
            },
          ]}
        />
      </Section>
      <UsageSection />
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/api-keys',
    title: 'API keys',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: ApiKeys,
  },
];
