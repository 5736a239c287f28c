import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { ConfirmButton, ErrorBanner, Loading, Page, SecretOnce, Section } from '../ui';
import { when } from '../ui/integrations-kit';
import type { ScreenDef } from './types';

/** docs/scim.md: GET /api/v1/tenants/scim, the configuration (never the token), and the token as issued (shown once). */
type ScimConfig = Answer<'/tenants/scim'>;
type IssuedToken = Answer<'/tenants/scim/token', 'post', 201>;

const BASE = '/tenants/scim';

function Scim() {
  const config = useApi<ScimConfig>(BASE);
  const entitlements = useApi<Answer<'/entitlements'>>('/entitlements');
  const [issued, setIssued] = useState<IssuedToken | undefined>(undefined);
  const dormant = config.error?.status === 404;
  const c = config.data && !dormant ? config.data : undefined;
  const planAllows = entitlements.data?.features.includes('scim') ?? false;
  const mint = async () => {
    setIssued(await api<IssuedToken>('POST', `${BASE}/token`));
    config.reload();
  };

  return (
    <Page title="SCIM provisioning" description="Your identity provider creates, updates and removes members here.">
      <ErrorBanner error={entitlements.error} />
      {entitlements.data && !planAllows && (
        <div className="banner banner-error" role="status">
          The {entitlements.data.name} plan does not include SCIM: a token cannot be issued.
        </div>
      )}
      {issued && (
        <Section title="Configure your identity provider">
          <dl className="facts">
            <dt>SCIM base URL</dt>
            <dd className="wrap-anywhere" data-testid="scim-base-url">
              {issued.base_url}
            </dd>
          </dl>
          <SecretOnce label="SCIM bearer token" value={issued.token} onDone={() => setIssued(undefined)} />
        </Section>
      )}
      <Section title="Configuration">
        {(config.loading || entitlements.loading) && !config.data && !config.error && <Loading />}
        {config.error && !dormant && <ErrorBanner error={config.error} />}
        {dormant && (
          <>
            <p>SCIM is not configured: no token exists.</p>
            {planAllows && (
              <ConfirmButton
                label="Issue a SCIM token"
                danger={false}
                question="Issue a SCIM token? Provisioning is enabled with it; the token is shown once."
                onConfirm={mint}
              />
            )}
          </>
        )}
        {c && (
          <>
            <dl className="facts">
              <dt>State</dt>
              <dd data-testid="scim-state">{c.enabled ? 'Enabled' : 'Paused: the identity provider gets 404'}</dd>
              <dt>Base URL</dt>
              <dd className="wrap-anywhere">{c.base_url}</dd>
              <dt>Token</dt>
              <dd>
                <code>{c.token_hint}…</code> issued {when(c.token_created_at)}
              </dd>
            </dl>
            <div className="row-actions">
              <ConfirmButton
                label={c.enabled ? 'Pause provisioning' : 'Resume provisioning'}
                danger={c.enabled}
                question={
                  c.enabled
                    ? 'Pause SCIM provisioning? The token is kept; the identity provider gets 404 until you resume.'
                    : 'Resume SCIM provisioning with the current token?'
                }
                onConfirm={async () => {
                  await api('PATCH', BASE, { enabled: !c.enabled } satisfies Body<'/tenants/scim', 'patch'>);
                  config.reload();
                }}
              />
              {planAllows && (
                <ConfirmButton
                  label="Rotate token"
                  question="Issue a new SCIM token? The current one stops working at once: enter the new one at your identity provider."
                  onConfirm={mint}
                />
              )}
              <ConfirmButton
                label="Revoke token"
                question="Revoke the SCIM token? It stops at once and SCIM is dormant again; provisioned members stay."
                onConfirm={async () => {
                  await api('DELETE', `${BASE}/token`);
                  setIssued(undefined);
                  config.reload();
                }}
              />
            </div>
          </>
        )}
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/scim',
    title: 'SCIM provisioning',
    group: 'Integrations',
    visible: (s) => s.can('tenant:manage'),
    component: Scim,
  },
];
