import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { SAML_IDP_CERTIFICATE, SAML_ROGUE_CERTIFICATE, type SamlIdp, startSamlIdp } from '../support/saml-idp.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Part A 4.6: the organization's SAML 2.0 identity provider (`/tenants/sso/saml`), the service provider's values to
 * register there (`/sp`, the public metadata), and configuration from the identity provider's metadata.
 */
let svc: TestService;
let idp: SamlIdp;

beforeAll(async () => {
  svc = await startService({}, { baseUrlIsListenAddress: true });
  idp = await startSamlIdp({ clock: () => svc.clock.now() });
});
afterAll(async () => {
  await svc?.close();
  await idp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const config = (overrides: Record<string, unknown> = {}) => ({
  idp_entity_id: idp.entityId,
  sso_url: idp.ssoUrl,
  slo_url: idp.sloUrl,
  idp_certificates: [SAML_IDP_CERTIFICATE],
  ...overrides,
});
const put = (token: string, json: unknown) => request(api('/tenants/sso/saml'), { method: 'PUT', token, json });
const importMetadata = (token: string, xml: string, type = 'application/samlmetadata+xml') =>
  request(api('/tenants/sso/saml/import-metadata'), { token, body: xml, headers: { 'content-type': type } });

async function enterpriseOrg(label = 'samladmin') {
  const owner = await signUpOwner(svc.url, label);
  await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
  return owner;
}

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

describe('configuration', () => {
  it('is dormant until configured, then creates, reads, replaces and removes the connection', async () => {
    const owner = await enterpriseOrg();
    const get = () => request(api('/tenants/sso/saml'), { token: owner.token });
    const dormant = await get();
    expect(dormant.status).toBe(404);
    expect(dormant.body.detail).toMatch(/SAML is not configured/);
    expect((await request(api('/tenants/sso/saml'), { method: 'DELETE', token: owner.token })).status).toBe(404);
    expect((await request(api(`/auth/sso/saml/${owner.tenantId}/metadata`))).status).toBe(404);
    expect((await request(api(`/auth/sso/saml/${owner.tenantId}/slo?SAMLRequest=x`))).status).toBe(404);

    const created = await put(
      owner.token,
      config({ allowed_domains: ['Corp.Example.com.', 'corp.example.com', 'b.example.org'] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      slo_url: idp.sloUrl,
      idp_certificates: [SAML_IDP_CERTIFICATE.trim()],
      certificates: [
        {
          fingerprint_sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
          subject: 'CN=test saml idp signing',
          not_before: expect.any(String),
          not_after: expect.stringMatching(/^2126-/),
        },
      ],
      allowed_domains: ['b.example.org', 'corp.example.com'],
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await get()).body).toEqual(created.body);

    // Replacement: omitted optional fields take their defaults; a bare base64 certificate is accepted.
    const replaced = await put(owner.token, {
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      idp_certificates: [pemBody(SAML_ROGUE_CERTIFICATE), SAML_IDP_CERTIFICATE, SAML_IDP_CERTIFICATE],
      enabled: false,
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toMatchObject({ slo_url: null, allowed_domains: [], enabled: false });
    expect(replaced.body.idp_certificates).toEqual([SAML_ROGUE_CERTIFICATE.trim(), SAML_IDP_CERTIFICATE.trim()]);
    expect(replaced.body.created_at).toBe(created.body.created_at);

    const removed = await request(api('/tenants/sso/saml'), { method: 'DELETE', token: owner.token });
    expect(removed.status).toBe(204);
    expect((await get()).status).toBe(404);

    const recorded = await rows<{ action: string; data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select action, data from events where tenant_id = ${owner.tenantId} and action like 'sso.saml_%'`,
    );
    expect(recorded.map((row) => row.action).sort()).toEqual([
      'sso.saml_configured',
      'sso.saml_configured',
      'sso.saml_removed',
    ]);
    expect(recorded.find((row) => row.data.created === true)?.data).toMatchObject({
      protocol: 'saml',
      source: 'api',
      idp_entity_id: idp.entityId,
      certificate_fingerprints: [created.body.certificates[0].fingerprint_sha256],
    });
  });

  it('answers 401 without a token and 403 without tenant:manage', async () => {
    const owner = await enterpriseOrg();
    expect((await put(owner.token, config())).status).toBe(201);
    expect((await request(api('/tenants/sso/saml'))).status).toBe(401);
    const member = await addMember(svc, owner, 'member');
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['GET', '/sp'],
    ] as const) {
      const res = await request(api(`/tenants/sso/saml${path}`), {
        method,
        token: member.token,
        ...(method === 'PUT' ? { json: config() } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe('Missing permission: tenant:manage');
    }
    const imported = await importMetadata(member.token, idp.metadata());
    expect(imported.status).toBe(403);
  });

  it('needs the Enterprise plan to configure (403 naming the plan); reading and removing survive a downgrade', async () => {
    const owner = await signUpOwner(svc.url, 'samlfree');
    const refused = await put(owner.token, config({ sso_url: 'http://not-even-valid' }));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe('Enterprise SSO is not included in the Free plan (Enterprise)');
    expect((await importMetadata(owner.token, '<not-metadata/>')).status).toBe(403);
    expect((await request(api('/tenants/sso/saml/sp'), { token: owner.token })).status).toBe(403);

    await svc.deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
    expect((await put(owner.token, config())).status).toBe(201);
    await svc.deps.database.db.execute(sql`update tenants set plan = 'free' where id = ${owner.tenantId}`);
    expect((await request(api('/tenants/sso/saml'), { token: owner.token })).status).toBe(200);
    expect((await request(api('/tenants/sso/saml/sp'), { token: owner.token })).status).toBe(200);
    expect((await put(owner.token, config())).status).toBe(403);
    expect((await request(api('/tenants/sso/saml'), { method: 'DELETE', token: owner.token })).status).toBe(204);
  });

  it('refuses a malformed configuration with 422 naming the field', async () => {
    const owner = await enterpriseOrg();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ idp_entity_id: undefined }, /^idp_entity_id: is required$/],
      [{ idp_entity_id: 'https://idp.example.com/ saml' }, /^idp_entity_id: must be 1 to 1024 characters/],
      [{ sso_url: 'http://idp.example.com/sso' }, /^sso_url: must use https$/],
      [{ sso_url: 'idp.example.com/sso' }, /^sso_url: must be an absolute URL$/],
      [{ sso_url: 'https://user:pw@idp.example.com/sso' }, /^sso_url: must not carry credentials$/],
      [{ slo_url: 'https://idp.example.com/slo#x' }, /^slo_url: must not carry a fragment$/],
      [{ idp_certificates: [] }, /^idp_certificates: /],
      [
        { idp_certificates: ['not a certificate'] },
        /^idp_certificates\[0\]: is not a PEM or base64 X.509 certificate$/,
      ],
      [
        { idp_certificates: [SAML_IDP_CERTIFICATE, Buffer.from('not der').toString('base64')] },
        /^idp_certificates\[1\]: is not a PEM or base64 X.509 certificate$/,
      ],
      [{ idp_certificates: Array(6).fill(SAML_IDP_CERTIFICATE) }, /^idp_certificates: /],
      [{ allowed_domains: ['not a domain'] }, /^allowed_domains: "not a domain" is not a domain name$/],
      [{ extra: true }, /^extra: is not a known field$/],
    ];
    for (const [overrides, detail] of cases) {
      const res = await put(owner.token, config(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    expect((await request(api('/tenants/sso/saml'), { token: owner.token })).status).toBe(404);
  });

  it('keeps each organization’s connection to itself (tenant isolation)', async () => {
    const alpha = await enterpriseOrg('samlalpha');
    const beta = await enterpriseOrg('samlbeta');
    expect((await put(alpha.token, config())).status).toBe(201);
    expect((await request(api('/tenants/sso/saml'), { token: beta.token })).status).toBe(404);
    expect((await request(api('/tenants/sso/saml'), { method: 'DELETE', token: beta.token })).status).toBe(404);
    expect((await request(api('/tenants/sso/saml'), { token: alpha.token })).status).toBe(200);
    const betaSp = await request(api('/tenants/sso/saml/sp'), { token: beta.token });
    expect(betaSp.body.entity_id).toContain(beta.tenantId);
    expect(betaSp.body.entity_id).not.toContain(alpha.tenantId);
  });
});

describe('service provider', () => {
  it('answers the values to register at the identity provider, before and after configuration', async () => {
    const owner = await enterpriseOrg();
    const sp = await request(api('/tenants/sso/saml/sp'), { token: owner.token });
    expect(sp.status, sp.text).toBe(200);
    const base = `${svc.url}/api/v1/auth/sso/saml/${owner.tenantId}`;
    expect(sp.body).toEqual({
      entity_id: `${base}/metadata`,
      acs_url: `${base}/acs`,
      slo_url: `${base}/slo`,
      metadata_url: `${base}/metadata`,
    });
    expect((await put(owner.token, config())).status).toBe(201);
    expect((await request(api('/tenants/sso/saml/sp'), { token: owner.token })).body).toEqual(sp.body);

    const metadata = await fetch(sp.body.metadata_url);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${sp.body.entity_id}"`);
    expect(xml).toContain(
      `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${sp.body.acs_url}"`,
    );
    expect(xml).toContain(
      `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${sp.body.slo_url}"/>`,
    );
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('AuthnRequestsSigned="false"');
  });
});

describe('metadata import', () => {
  it('fills the connection from the identity provider’s metadata and keeps domains and enabled on re-import', async () => {
    const owner = await enterpriseOrg();
    const first = await importMetadata(owner.token, idp.metadata());
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      idp_entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      slo_url: idp.sloUrl,
      idp_certificates: [SAML_IDP_CERTIFICATE.trim()],
      allowed_domains: [],
      enabled: true,
    });
    expect((await put(owner.token, config({ allowed_domains: ['corp.example.com'], enabled: false }))).status).toBe(
      200,
    );
    const again = await importMetadata(owner.token, idp.metadata({ withSlo: false }), 'application/xml');
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ slo_url: null, allowed_domains: ['corp.example.com'], enabled: false });
    const [event] = await rows<{ data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select data from events where tenant_id = ${owner.tenantId} and action = 'sso.saml_configured'
          and data->>'created' = 'true'`,
    );
    expect(event?.data.source).toBe('metadata');
  });

  it('reads an aggregate holding one identity provider', async () => {
    const owner = await enterpriseOrg();
    const single = idp.metadata().replace(/^<\?xml[^>]*>\n/, '');
    const aggregate = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${single}</md:EntitiesDescriptor>`;
    const res = await importMetadata(owner.token, aggregate, 'text/xml');
    expect(res.status, res.text).toBe(201);
    expect(res.body.idp_entity_id).toBe(idp.entityId);
  });

  it('refuses DTDs, other documents and incomplete metadata with 422, and other media types with 415', async () => {
    const owner = await enterpriseOrg();
    const metadata = idp.metadata();
    const cases: Array<[string, RegExp]> = [
      [
        `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY e SYSTEM "file:///etc/passwd">]>${metadata.replace(/^<\?xml[^>]*>/, '')}`,
        /^metadata: document type declarations \(DTDs\) are not allowed$/,
      ],
      ['<md:EntityDescriptor', /^metadata: not well-formed XML$/],
      ['<html><body>login</body></html>', /^metadata: the document is no SAML 2.0 EntityDescriptor$/],
      [metadata.replace(/ entityID="[^"]+"/, ''), /^metadata: the EntityDescriptor has no entityID$/],
      [
        metadata.replace(/<md:SingleSignOnService Binding="[^"]+HTTP-Redirect"[^>]+>/, ''),
        /^metadata: no SingleSignOnService with the HTTP-Redirect binding$/,
      ],
      [metadata.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, ''), /^metadata: no signing certificate/],
      [metadata.replace(/IDPSSODescriptor/g, 'SPSSODescriptor'), /^metadata: no SAML 2.0 IDPSSODescriptor$/],
    ];
    for (const [xml, detail] of cases) {
      const res = await importMetadata(owner.token, xml);
      expect(res.status, xml.slice(0, 80)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    const json = await request(api('/tenants/sso/saml/import-metadata'), {
      token: owner.token,
      json: { metadata },
    });
    expect(json.status).toBe(415);
    expect((await request(api('/tenants/sso/saml'), { token: owner.token })).status).toBe(404);
  });
});
