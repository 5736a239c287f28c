import { useRef, useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { Link, useQueryState, useRoute } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, EmptyState, ErrorBanner, Field, Form, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** GET /operator/tenants: a page of organizations as the platform operator sees them (docs/operator.md). */
type TenantsPage = Answer<'/operator/tenants'>;
type TenantView = TenantsPage['tenants'][number];
/** GET /operator/tenants/{id}/config: every setting of an organization with its risk. */
type TenantConfig = Answer<'/operator/tenants/{id}/config'>;
type SettingRecord = TenantConfig['settings'][number];
type SettingValue = SettingRecord['value'];

const BASE = '/operator/tenants';
/** The entitlement tiers PUT /operator/tenants/{id}/plan accepts (422 for any other). */
const PLANS = ['free', 'pro', 'enterprise'];

function PlanButton(props: { tenant: TenantView; onDone: () => void }) {
  const plan = useRef<HTMLSelectElement>(null);
  const id = `plan-${props.tenant.id}`;
  return (
    <ConfirmButton
      label="Change plan"
      danger={false}
      ariaLabel={`Change plan of ${props.tenant.slug}`}
      confirmLabel="Set plan"
      question={
        <>
          <p>
            Set the plan of <strong>{props.tenant.name}</strong> ({props.tenant.slug})? Seats and features follow at
            once; a downgrade removes nothing, what the new plan lacks is refused from now on.
          </p>
          <div className="field">
            <label htmlFor={id}>New plan</label>
            <select id={id} ref={plan} defaultValue={props.tenant.plan_code}>
              {PLANS.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </div>
        </>
      }
      onConfirm={async () => {
        await api('PUT', `${BASE}/${encodeURIComponent(props.tenant.id)}/plan`, {
          plan_code: plan.current?.value ?? props.tenant.plan_code,
        } satisfies Body<'/operator/tenants/{id}/plan', 'put'>);
        props.onDone();
      }}
    />
  );
}

function Organizations() {
  const session = useSession();
  const [q, setQ] = useQueryState('q');
  const [cursor, setCursor] = useQueryState('cursor');
  const list = useApi<TenantsPage>(BASE, { q: q || undefined, cursor: cursor || undefined, limit: 50 });
  const canManage = session.can('operator:manage');
  return (
    <Page title="Organizations" description="Every organization of the installation, by slug, with its plan.">
      <Section title="Organizations">
        <form
          className="filter-bar"
          aria-label="Find organizations"
          onSubmit={(event) => {
            event.preventDefault();
            const value = new FormData(event.currentTarget).get('q');
            setQ(typeof value === 'string' ? value.trim() : undefined);
            setCursor(undefined);
          }}
        >
          <div className="field">
            <label htmlFor="tenants-q">Slug or name contains</label>
            <input id="tenants-q" name="q" defaultValue={q} maxLength={100} />
          </div>
          <button type="submit" className="button">
            Find
          </button>
        </form>
        <DataTable<TenantView>
          caption="Organizations"
          rows={list.data?.tenants}
          loading={list.loading}
          error={list.error}
          rowKey={(row) => row.id}
          empty={q ? 'No organization matches this search.' : 'No organizations.'}
          columns={[
            {
              key: 'name',
              header: 'Name',
              render: (row) => <Link to={`/operator/tenants/${encodeURIComponent(row.id)}`}>{row.name}</Link>,
            },
            { key: 'slug', header: 'Slug', render: (row) => <code>{row.slug}</code> },
            {
              key: 'plan',
              header: 'Plan',
              render: (row) => <span data-testid={`plan-${row.slug}`}>{row.plan_code}</span>,
            },
            { key: 'state', header: 'State', render: (row) => (row.quarantined ? 'Quarantined' : 'Active') },
            { key: 'created', header: 'Created', render: (row) => when(row.created_at) },
            ...(canManage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: TenantView) => <PlanButton tenant={row} onDone={list.reload} />,
                  },
                ]
              : []),
          ]}
        />
        <div className="row-actions">
          {cursor && (
            <button type="button" className="button" onClick={() => setCursor(undefined)}>
              First page
            </button>
          )}
          {list.data?.next_cursor && (
            <button type="button" className="button" onClick={() => setCursor(list.data?.next_cursor ?? undefined)}>
              Next page
            </button>
          )}
        </div>
      </Section>
    </Page>
  );
}

const shown = (value: SettingValue) => (typeof value === 'string' ? value || '(empty)' : String(value));

/** The value as the setting's type: the API checks bounds and never coerces (400 stating the rule). */
function typed(setting: SettingRecord, raw: string): SettingValue {
  if (setting.type === 'boolean') return raw === 'true';
  if (setting.type === 'integer') return raw.trim() === '' ? raw : Number(raw);
  return raw;
}

function ChangeSetting(props: { tenantId: string; settings: SettingRecord[]; onDone: (key: string) => void }) {
  const [key, setKey] = useState(props.settings[0]?.key ?? '');
  const setting = props.settings.find((s) => s.key === key);
  if (!setting) return null;
  return (
    <Section title="Change an operator setting">
      <div className="field">
        <label htmlFor="operator-setting-key">Setting</label>
        <select id="operator-setting-key" value={key} onChange={(event) => setKey(event.target.value)}>
          {props.settings.map((s) => (
            <option key={s.key} value={s.key}>
              {s.key}
            </option>
          ))}
        </select>
        <p className="hint">{setting.summary}</p>
      </div>
      <Form
        key={setting.key}
        label="Change an operator setting"
        submitLabel="Save setting"
        onSubmit={async (values) => {
          await api(
            'PATCH',
            `${BASE}/${encodeURIComponent(props.tenantId)}/config/${encodeURIComponent(setting.key)}`,
            {
              value: typed(setting, values.value ?? ''),
            } satisfies Body<'/operator/tenants/{id}/config/{key}', 'patch'>,
          );
          props.onDone(setting.key);
        }}
      >
        {setting.type === 'boolean' ? (
          <Field
            name="value"
            label="Value"
            defaultValue={String(setting.value)}
            options={[
              { value: 'true', label: 'true' },
              { value: 'false', label: 'false' },
            ]}
          />
        ) : setting.allowed ? (
          <Field
            name="value"
            label="Value"
            defaultValue={String(setting.value)}
            options={setting.allowed.map((v) => ({ value: v, label: v }))}
          />
        ) : (
          <Field
            name="value"
            label="Value"
            type={setting.type === 'integer' ? 'number' : 'text'}
            defaultValue={String(setting.value)}
            hint={setting.bounds ? `From ${setting.bounds.min} to ${setting.bounds.max}.` : undefined}
          />
        )}
      </Form>
    </Section>
  );
}

function OrganizationSettings({ id }: { id: string }) {
  const session = useSession();
  const config = useApi<TenantConfig>(id ? `${BASE}/${encodeURIComponent(id)}/config` : null);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const editable = config.data?.settings.filter((s) => s.editable) ?? [];
  return (
    <Page
      title="Organization settings"
      description="Every setting of the organization with its risk; the platform operator's own settings are editable here, the organization's own are read-only."
      actions={
        <Link to="/operator/tenants" className="button">
          All organizations
        </Link>
      }
    >
      <p className="muted">
        Organization <code>{id}</code>
      </p>
      {config.loading && !config.data && <Loading />}
      <ErrorBanner error={config.error} />
      {saved && <Notice>Setting {saved} saved.</Notice>}
      {config.data && session.can('operator:manage') && editable.length > 0 && (
        <ChangeSetting
          tenantId={id}
          settings={editable}
          onDone={(key) => {
            setSaved(key);
            config.reload();
          }}
        />
      )}
      {config.data && config.data.settings.length === 0 && <EmptyState title="No settings." />}
      {config.data && config.data.settings.length > 0 && (
        <Section title="Settings">
          <DataTable<SettingRecord>
            caption="Settings of the organization"
            rows={config.data.settings}
            rowKey={(row) => row.key}
            pageSize={50}
            columns={[
              { key: 'key', header: 'Setting', render: (row) => <code>{row.key}</code> },
              { key: 'summary', header: 'What it does', render: (row) => row.summary },
              {
                key: 'value',
                header: 'Value',
                render: (row) => (
                  <span data-testid={`setting-${row.key}`}>
                    {shown(row.value)}
                    {row.overridden ? '' : ' (default)'}
                  </span>
                ),
              },
              { key: 'risk', header: 'Risk', render: (row) => row.risk },
              { key: 'owner', header: 'Set by', render: (row) => (row.editable ? 'Operator' : 'Organization') },
            ]}
          />
        </Section>
      )}
    </Page>
  );
}

function OperatorTenants() {
  const { path } = useRoute();
  const id = path.replace(/^\/operator\/tenants\/?/, '');
  return id ? <OrganizationSettings id={decodeURIComponent(id)} /> : <Organizations />;
}

export const screens: ScreenDef[] = [
  {
    path: '/operator/tenants/*',
    title: 'Organizations',
    group: 'Platform operator',
    visible: (s) => s.isPlatformOperator && s.can('operator:read'),
    component: OperatorTenants,
  },
];
