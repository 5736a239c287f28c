import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { ConfirmButton, ErrorBanner, Field, type FormValues, Loading, Notice, Page, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import {
  ConnectionForm,
  ConnectionLoadState,
  DomainsAndStateFacts,
  DomainsAndStateFields,
  domainsAndStateOf,
  RemoveConnection,
  useConnection,
} from './sso-common';
import { SamlSection } from './sso-saml';
import type { ScreenDef } from './types';

/** docs/sso.md: GET /api/v1/tenants/sso/oidc, the organization's OIDC identity provider (never its client secret). */
type OidcConfig = Answer<'/tenants/sso/oidc'>;
/** POST /api/v1/tenants/sso/oidc/test: each check of the connection test. */
type TestReport = Answer<'/tenants/sso/oidc/test', 'post'>;

const OIDC = '/tenants/sso/oidc';

function Enforcement(props: { connection: OidcConfig }) {
  const enforcement = useApi<Answer<'/tenants/sso/enforcement'>>('/tenants/sso/enforcement');
  const c = props.connection;
  const provable = c.enabled && c.last_test?.ok === true;
  const setRequired = async (required: boolean) => {
    await api('PUT', '/tenants/sso/enforcement', { required } satisfies Body<'/tenants/sso/enforcement', 'put'>);
    enforcement.reload();
  };
  return (
    <>
      <h3>Enforcement</h3>
      {enforcement.loading && !enforcement.data && <Loading />}
      <ErrorBanner error={enforcement.error} />
      {enforcement.data && (
        <>
          <p data-testid="sso-required">
            {enforcement.data.required
              ? 'Required: members who are not owners sign in only through the identity provider.'
              : 'Not required: members may also use their other sign-in methods.'}
          </p>
          {enforcement.data.required ? (
            <ConfirmButton
              label="Stop requiring SSO"
              question="Stop requiring single sign-on? Members can use their other sign-in methods again."
              onConfirm={() => setRequired(false)}
            />
          ) : provable ? (
            <ConfirmButton
              label="Require SSO"
              question="Require single sign-on? Password, magic-link, passkey and social sign-in stop for members who are not owners, and their sessions that did not begin through SSO end now."
              onConfirm={() => setRequired(true)}
            />
          ) : (
            <p className="hint">
              Requiring SSO needs an enabled connection whose last connection test of its current settings passed.
            </p>
          )}
        </>
      )}
    </>
  );
}

function OidcSection(props: { planAllows: boolean }) {
  const loaded = useConnection<OidcConfig>(OIDC);
  const { config, dormant, connection: c } = loaded;
  const [editing, setEditing] = useState(false);
  const [report, setReport] = useState<TestReport | undefined>(undefined);
  const [testError, setTestError] = useState<Error | undefined>(undefined);
  const [saved, setSaved] = useState(false);

  return (
    <Section
      title="OpenID Connect"
      actions={
        c && (
          <div className="row-actions">
            {props.planAllows && (
              <button
                type="button"
                className="button"
                onClick={async () => {
                  setReport(undefined);
                  setTestError(undefined);
                  try {
                    setReport(await api<TestReport>('POST', `${OIDC}/test`));
                    config.reload();
                  } catch (reason) {
                    setTestError(reason as Error);
                  }
                }}
              >
                Test connection
              </button>
            )}
            <RemoveConnection
              protocol="OpenID Connect"
              path={OIDC}
              question="Remove the OpenID Connect identity provider? Nobody signs in through it any more and SSO stops being required."
              onRemoved={() => {
                setEditing(false);
                config.reload();
              }}
            />
          </div>
        )
      }
    >
      <ConnectionLoadState loaded={loaded} />
      {saved && <Notice>Connection saved.</Notice>}
      <ErrorBanner error={testError} />
      {report && (
        <div className={report.ok ? 'banner banner-success' : 'banner banner-error'} role="status">
          <strong>Connection test {report.ok ? 'passed' : 'failed'}.</strong>
          <ul className="check-list">
            {report.checks.map((check) => (
              <li key={check.name}>
                {check.ok ? '✓' : '✗'} {check.name}: {check.detail}
              </li>
            ))}
          </ul>
        </div>
      )}
      {dormant && !editing && (
        <p>
          No OpenID Connect identity provider is configured.{' '}
          {props.planAllows && (
            <button type="button" className="button primary" onClick={() => setEditing(true)}>
              Configure OpenID Connect
            </button>
          )}
        </p>
      )}
      {c && !editing && (
        <>
          <dl className="facts">
            <dt>Issuer</dt>
            <dd className="wrap-anywhere">{c.issuer}</dd>
            <dt>Client id</dt>
            <dd>{c.client_id}</dd>
            <dt>Client secret</dt>
            <dd>{c.client_secret_set ? 'Stored (never shown)' : 'Missing: give it to enable the connection'}</dd>
            <dt>Scopes</dt>
            <dd>{c.scopes.join(' ')}</dd>
            <DomainsAndStateFacts connection={c} />
            <dt>Last test</dt>
            <dd data-testid="oidc-last-test">
              {c.last_test
                ? `${c.last_test.ok ? 'Passed' : 'Failed'} ${when(c.last_test.tested_at)}`
                : 'Not tested since the last change'}
            </dd>
            {c.display_name && (
              <>
                <dt>Set up by manifest</dt>
                <dd>{c.display_name}</dd>
              </>
            )}
          </dl>
          {props.planAllows && (
            <p>
              <button type="button" className="button" onClick={() => setEditing(true)}>
                Edit connection
              </button>
            </p>
          )}
          <Enforcement key={`${c.updated_at}-${c.last_test?.tested_at ?? ''}`} connection={c} />
        </>
      )}
      {editing && props.planAllows && (
        <ConnectionForm
          label="OpenID Connect identity provider"
          submitLabel="Save connection"
          onSubmit={async (values: FormValues<'issuer' | 'client_id'>) => {
            setSaved(false);
            const scopes = values.scopes?.split(/\s+/).filter(Boolean);
            await api('PUT', OIDC, {
              issuer: values.issuer,
              client_id: values.client_id,
              ...(values.client_secret ? { client_secret: values.client_secret } : {}),
              ...(scopes && scopes.length > 0 ? { scopes } : {}),
              ...domainsAndStateOf(values),
            } satisfies Body<'/tenants/sso/oidc', 'put'>);
            setSaved(true);
            setEditing(false);
            config.reload();
          }}
          onCancel={() => setEditing(false)}
        >
          <Field
            name="issuer"
            label="Issuer"
            type="url"
            required
            defaultValue={c?.issuer}
            hint="Exactly as the provider's discovery document names it (https, port 443)."
          />
          <Field name="client_id" label="Client id" required defaultValue={c?.client_id} autoComplete="off" />
          <Field
            name="client_secret"
            label="Client secret"
            type="password"
            autoComplete="new-password"
            required={!c}
            hint={c ? 'Leave empty to keep the stored secret (needed again if issuer or client id change).' : undefined}
          />
          <Field
            name="scopes"
            label="Scopes"
            defaultValue={(c?.scopes ?? ['openid', 'email', 'profile']).join(' ')}
            hint="Separated by spaces; must include openid."
          />
          <DomainsAndStateFields connection={c} disabledLabel="Disabled (turns enforcement off)" />
        </ConnectionForm>
      )}
    </Section>
  );
}

function Sso() {
  const entitlements = useApi<Answer<'/entitlements'>>('/entitlements');
  if (entitlements.loading && !entitlements.data)
    return (
      <Page title="Single sign-on">
        <Loading />
      </Page>
    );
  const planAllows = entitlements.data?.features.includes('enterprise_sso') ?? false;
  return (
    <Page title="Single sign-on" description="Your identity provider signs your organization's people in.">
      <ErrorBanner error={entitlements.error} />
      {entitlements.data && !planAllows && (
        <div className="banner banner-error" role="status">
          The {entitlements.data.name} plan does not include Enterprise SSO: an existing connection can be read and
          removed, not configured or tested.
        </div>
      )}
      <OidcSection planAllows={planAllows} />
      <SamlSection planAllows={planAllows} />
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/sso',
    title: 'Single sign-on',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: Sso,
  },
];
