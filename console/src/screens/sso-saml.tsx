import { useState } from 'react';
import { type Answer, api, type Body, useApi } from '../api';
import { ErrorBanner, Field, type FormValues, Loading, Notice, Section } from '../ui';
import { postDocument, when } from '../ui/integrations-kit';
import {
  ConnectionForm,
  ConnectionLoadState,
  DomainsAndStateFacts,
  DomainsAndStateFields,
  domainsAndStateOf,
  RemoveConnection,
  useConnection,
} from './sso-common';

/** docs/saml.md: GET /api/v1/tenants/sso/saml, the organization's SAML identity provider. */
type SamlConfig = Answer<'/tenants/sso/saml'>;
/** GET /api/v1/tenants/sso/saml/sp: what the identity provider needs to know about this service. */
type ServiceProvider = Answer<'/tenants/sso/saml/sp'>;

const SAML = '/tenants/sso/saml';
/** PEM blocks (or bare base64 lines separated by blank lines) as the API takes them: one string each. */
const certificatesOf = (text: string | undefined) => {
  const pems = (text ?? '').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (pems) return pems;
  return (text ?? '')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean);
};

function ServiceProviderFacts() {
  const sp = useApi<ServiceProvider>(`${SAML}/sp`);
  if (sp.loading && !sp.data) return <Loading />;
  if (sp.error) return <ErrorBanner error={sp.error} />;
  if (!sp.data) return null;
  return (
    <>
      <h3>Register this service at your identity provider</h3>
      <dl className="facts">
        <dt>Entity id</dt>
        <dd className="wrap-anywhere">{sp.data.entity_id}</dd>
        <dt>Assertion Consumer Service (HTTP-POST)</dt>
        <dd className="wrap-anywhere">{sp.data.acs_url}</dd>
        <dt>Single logout (HTTP-Redirect)</dt>
        <dd className="wrap-anywhere">{sp.data.slo_url}</dd>
        <dt>Metadata</dt>
        <dd className="wrap-anywhere">{sp.data.metadata_url}</dd>
      </dl>
    </>
  );
}

export function SamlSection(props: { planAllows: boolean }) {
  const loaded = useConnection<SamlConfig>(SAML);
  const { config, dormant, connection: c } = loaded;
  const [mode, setMode] = useState<'view' | 'edit' | 'import'>('view');
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const done = (what: string) => {
    setSaved(what);
    setMode('view');
    config.reload();
  };

  return (
    <Section
      title="SAML 2.0"
      actions={
        c && (
          <RemoveConnection
            protocol="SAML"
            path={SAML}
            question="Remove the SAML identity provider? Nobody signs in through it any more."
            onRemoved={() => {
              setMode('view');
              config.reload();
            }}
          />
        )
      }
    >
      <ConnectionLoadState loaded={loaded} />
      {saved && <Notice>{saved}</Notice>}
      {(props.planAllows || c) && <ServiceProviderFacts />}
      {dormant && mode === 'view' && <p>No SAML identity provider is configured.</p>}
      {c && mode === 'view' && <h3>Your identity provider</h3>}
      {c && mode === 'view' && (
        <dl className="facts">
          <dt>Identity provider entity id</dt>
          <dd className="wrap-anywhere" data-testid="saml-entity-id">
            {c.idp_entity_id}
          </dd>
          <dt>Sign-on URL</dt>
          <dd className="wrap-anywhere">{c.sso_url}</dd>
          <dt>Logout URL</dt>
          <dd className="wrap-anywhere">{c.slo_url ?? 'None: single logout is off'}</dd>
          <dt>Signing certificates</dt>
          <dd>
            <ul className="check-list">
              {c.certificates.map((cert) => (
                <li key={cert.fingerprint_sha256}>
                  {cert.subject}, valid {when(cert.not_before)} to {when(cert.not_after)}
                  <br />
                  <code className="wrap-anywhere">{cert.fingerprint_sha256}</code>
                </li>
              ))}
            </ul>
          </dd>
          <DomainsAndStateFacts connection={c} />
        </dl>
      )}
      {props.planAllows && mode === 'view' && (
        <p className="row-actions">
          <button type="button" className="button" onClick={() => setMode('import')}>
            Import metadata
          </button>
          <button type="button" className="button" onClick={() => setMode('edit')}>
            {c ? 'Edit connection' : 'Configure by hand'}
          </button>
        </p>
      )}
      {props.planAllows && mode === 'import' && (
        <ConnectionForm
          label="Import identity provider metadata"
          submitLabel="Import"
          onSubmit={async (values) => {
            setSaved(undefined);
            await postDocument(`${SAML}/import-metadata`, values.metadata ?? '', 'application/samlmetadata+xml');
            done('Metadata imported.');
          }}
          onCancel={() => setMode('view')}
        >
          <Field
            name="metadata"
            label="Identity provider metadata (XML)"
            multiline
            required
            hint="Paste the SAML 2.0 metadata document; its entity id, sign-on and logout URLs and signing certificates are taken. Allowed domains and state keep their values."
          />
        </ConnectionForm>
      )}
      {props.planAllows && mode === 'edit' && (
        <ConnectionForm
          label="SAML identity provider"
          submitLabel="Save connection"
          onSubmit={async (values: FormValues<'idp_entity_id' | 'sso_url'>) => {
            setSaved(undefined);
            await api('PUT', SAML, {
              idp_entity_id: values.idp_entity_id,
              sso_url: values.sso_url,
              slo_url: values.slo_url?.trim() || null,
              idp_certificates: certificatesOf(values.idp_certificates),
              ...domainsAndStateOf(values),
            } satisfies Body<'/tenants/sso/saml', 'put'>);
            done('Connection saved.');
          }}
          onCancel={() => setMode('view')}
        >
          <Field name="idp_entity_id" label="Identity provider entity id" required defaultValue={c?.idp_entity_id} />
          <Field name="sso_url" label="Sign-on URL (HTTP-Redirect)" type="url" required defaultValue={c?.sso_url} />
          <Field
            name="slo_url"
            label="Logout URL (HTTP-Redirect)"
            type="url"
            defaultValue={c?.slo_url ?? ''}
            hint="Optional; empty turns single logout off."
          />
          <Field
            name="idp_certificates"
            label="Signing certificates (PEM)"
            multiline
            required
            defaultValue={c?.idp_certificates.join('\n')}
            hint="One or two during a key rotation (at most 5)."
          />
          <DomainsAndStateFields connection={c} disabledLabel="Disabled" />
        </ConnectionForm>
      )}
    </Section>
  );
}
