import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/kernel/crypto/index.js';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { accountsHarness, shape } from './accounts-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, eventsOf, outboxOf, db } = accountsHarness(() => svc);

const CLIENT_ID = /^cl_[A-Za-z0-9_-]{22}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const UNKNOWN_CLIENT = 'cl_AAAAAAAAAAAAAAAAAAAAAA';
const UNKNOWN_RESOURCE = '00000000-0000-7000-8000-000000000000';

async function owner() {
  const { tokens, tenantId, slug } = await signUp();
  return { token: tokens.access_token, tenantId: tenantId!, slug };
}

const confidential = {
  name: 'Billing portal',
  client_type: 'confidential',
  redirect_uris: ['https://billing.example.com/callback'],
};
const createClient = (token: string, body: Record<string, unknown>) =>
  request(api('/oauth/clients'), { token, json: body });
const client = (token: string, clientId: string, init: { method?: string; json?: unknown } = {}) =>
  request(api(`/oauth/clients/${clientId}`), { token, ...init });
const rotate = (token: string, clientId: string) =>
  request(api(`/oauth/clients/${clientId}/rotate-secret`), { method: 'POST', token });
// The organization's registered clients: not its first-party console client (migration 0034, docs/console.md).
const storedClients = (tenantId: string) =>
  rows<{ client_id: string; secret_hash: string | null; redirect_uris: string[] }>(
    db(),
    sql`select * from oauth_clients where tenant_id = ${tenantId} and not first_party order by created_at`,
  );

describe('OAuth clients', () => {
  it('registers a confidential client with defaults; the secret is answered once and only its hash is kept', async () => {
    const { token, tenantId } = await owner();
    const res = await createClient(token, confidential);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      client_id: expect.stringMatching(CLIENT_ID),
      client_secret: expect.stringMatching(SECRET),
      name: 'Billing portal',
      client_type: 'confidential',
      redirect_uris: ['https://billing.example.com/callback'],
      grant_types: ['authorization_code'],
      scopes: ['openid', 'profile', 'email'],
      post_logout_redirect_uris: [],
      backchannel_logout_uri: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { client_id: clientId, client_secret: secret } = res.body;

    const list = await request(api('/oauth/clients'), { token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('client_secret');
    expect(list.text).not.toContain(secret);
    const one = await client(token, clientId);
    expect(one.status).toBe(200);
    const { client_secret: _shownOnce, ...record } = res.body;
    expect(one.body).toEqual(record);
    expect(one.text).not.toContain(secret);

    const stored = await storedClients(tenantId);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.secret_hash).toBe(sha256Hex(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    // Neither the event log, the audit chain nor the webhook outbox carries the secret.
    const trail = await rows(db(), sql`select data from events where tenant_id = ${tenantId}`);
    const audit = await rows(db(), sql`select data from audit_log where tenant_id = ${tenantId}`);
    const outbox = await rows(db(), sql`select payload from webhook_outbox where tenant_id = ${tenantId}`);
    expect(JSON.stringify([trail, audit, outbox])).not.toContain(secret);
  });

  it('registers a public client without a secret, with the loopback and private-use URIs stored exactly', async () => {
    const { token, tenantId } = await owner();
    const redirectUris = [
      'http://127.0.0.1:8400/callback',
      'http://[::1]:8400/callback',
      'http://localhost/callback',
      'com.example.app:/oauth2redirect',
      'https://app.example.com/cb?from=login',
    ];
    const res = await createClient(token, {
      name: 'Desktop app',
      client_type: 'public',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token', 'refresh_token'],
      scopes: ['openid'],
      post_logout_redirect_uris: ['https://app.example.com/bye'],
      backchannel_logout_uri: 'https://app.example.com/backchannel-logout',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).not.toHaveProperty('client_secret');
    expect(res.body).toMatchObject({
      client_type: 'public',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid'],
      post_logout_redirect_uris: ['https://app.example.com/bye'],
      backchannel_logout_uri: 'https://app.example.com/backchannel-logout',
    });
    const [stored] = await storedClients(tenantId);
    expect(stored).toMatchObject({ client_id: res.body.client_id, secret_hash: null, redirect_uris: redirectUris });
  });

  it('registers a client_credentials-only client without redirect URIs; authorization_code still needs one', async () => {
    const { token, tenantId } = await owner();
    const machine = { name: 'Nightly export', client_type: 'confidential', grant_types: ['client_credentials'] };
    const res = await createClient(token, { ...machine, redirect_uris: [] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ grant_types: ['client_credentials'], redirect_uris: [] });
    const clientId = res.body.client_id as string;
    const [stored] = await storedClients(tenantId);
    expect(stored).toMatchObject({ client_id: clientId, redirect_uris: [] });
    // It works at the token endpoint, which never redirects.
    const issued = await request(api('/oauth/token'), {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: res.body.client_secret,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(issued.status, issued.text).toBe(200);

    // Any grant that redirects needs at least one URI, on creation and on change.
    for (const grantTypes of [['authorization_code'], ['client_credentials', 'authorization_code'], undefined]) {
      const refused = await createClient(token, { ...machine, grant_types: grantTypes, redirect_uris: [] });
      expect([grantTypes, refused.status, refused.body.detail]).toEqual([
        grantTypes,
        422,
        'redirect_uris: must hold 1 to 20 URIs',
      ]);
    }
    const widened = await client(token, clientId, {
      method: 'PATCH',
      json: { grant_types: ['client_credentials', 'authorization_code'] },
    });
    expect([widened.status, widened.body.detail]).toEqual([422, 'redirect_uris: must hold 1 to 20 URIs']);
    const withUri = await client(token, clientId, {
      method: 'PATCH',
      json: {
        grant_types: ['client_credentials', 'authorization_code'],
        redirect_uris: ['https://export.example.com/cb'],
      },
    });
    expect(withUri.status, withUri.text).toBe(200);
    // Still at most 20 without authorization_code.
    const many = Array.from({ length: 21 }, (_, i) => `https://export.example.com/cb${i}`);
    const tooMany = await createClient(token, { ...machine, redirect_uris: many });
    expect([tooMany.status, tooMany.body.detail]).toEqual([422, 'redirect_uris: must hold 0 to 20 URIs']);
    expect(await storedClients(tenantId)).toHaveLength(1);
  });

  it('refuses every broken registration rule with 422 naming it, and stores nothing', async () => {
    const { token, tenantId } = await owner();
    const https = (path: string) => `https://app.example.com/${path}`;
    const many = Array.from({ length: 21 }, (_, i) => https(`cb${i}`));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name: must be 1 to 255 characters'],
      [{ name: '   ' }, 'name: must be 1 to 255 characters'],
      [{ name: 'x'.repeat(256) }, 'name: must be 1 to 255 characters'],
      [{ name: 'Pay\u0007ments' }, 'name: must not contain control characters'],
      [{ name: 'Safe\u202eexe.app' }, 'name: must not contain control characters'],
      [{ client_type: 'spa' }, 'client_type: must be confidential or public'],
      [{ redirect_uris: [] }, 'redirect_uris: must hold 1 to 20 URIs'],
      [{ redirect_uris: many }, 'redirect_uris: must hold 1 to 20 URIs'],
      [{ redirect_uris: [https('cb#done')] }, 'redirect_uris.0: must not contain a fragment (#)'],
      [
        { redirect_uris: [https('cb'), 'https://*.example.com/cb'] },
        'redirect_uris.1: must not contain a wildcard (*): register every URI exactly',
      ],
      [
        { redirect_uris: ['http://app.example.com/cb'] },
        'redirect_uris.0: http is allowed only on loopback hosts (localhost, 127.0.0.1, [::1]); use https',
      ],
      [{ redirect_uris: ['/callback'] }, 'redirect_uris.0: must be an absolute URI'],
      [
        { redirect_uris: ['javascript:alert(1)'] },
        'redirect_uris.0: scheme "javascript" is not allowed: use https, http on a loopback host, or a private-use ' +
          'scheme in reverse-domain form such as com.example.app (RFC 8252 section 7.1)',
      ],
      [{ redirect_uris: [https('a'.repeat(2000))] }, 'redirect_uris.0: must be at most 2000 characters'],
      [{ redirect_uris: [https('cb'), https('cb')] }, 'redirect_uris.1: duplicate of redirect_uris.0'],
      [{ redirect_uris: ['https://user:pw@app.example.com/cb'] }, 'redirect_uris.0: must not carry credentials'],
      [
        { grant_types: ['implicit'] },
        'grant_types: unknown grant type "implicit" (allowed: authorization_code, refresh_token, client_credentials)',
      ],
      [
        { grant_types: ['password'] },
        'grant_types: unknown grant type "password" (allowed: authorization_code, refresh_token, client_credentials)',
      ],
      [{ grant_types: [] }, 'grant_types: must name at least one grant type'],
      [{ grant_types: ['refresh_token'] }, 'grant_types: refresh_token requires authorization_code'],
      [
        { client_type: 'public', grant_types: ['authorization_code', 'client_credentials'] },
        'grant_types: client_credentials is only for confidential clients',
      ],
      [{ scopes: ['offline_access'] }, 'scopes: unknown scope "offline_access" (allowed: openid, profile, email)'],
      [{ scopes: [] }, 'scopes: must name at least one scope'],
      [
        { post_logout_redirect_uris: ['http://app.example.com/bye'] },
        'post_logout_redirect_uris.0: http is allowed only on loopback hosts (localhost, 127.0.0.1, [::1]); use https',
      ],
      [{ post_logout_redirect_uris: [https('bye#x')] }, 'post_logout_redirect_uris.0: must not contain a fragment (#)'],
      [{ backchannel_logout_uri: 'http://app.example.com/bcl' }, 'backchannel_logout_uri: must use https'],
      [{ backchannel_logout_uri: 'https://app.example.com:8443/bcl' }, 'backchannel_logout_uri: port must be 443'],
      [
        { backchannel_logout_uri: 'https://10.0.0.1/bcl' },
        'backchannel_logout_uri: host must be a name, not an IP address',
      ],
      [
        { backchannel_logout_uri: 'https://localhost/bcl' },
        'backchannel_logout_uri: host must be a fully-qualified public host name (localhost name (RFC 6761))',
      ],
      [{ backchannel_logout_uri: 'logout' }, 'backchannel_logout_uri: must be an absolute URL'],
      [{ redirect_uris: undefined }, 'redirect_uris: is required'],
      [{ client_secret: 'chosen-by-me' }, 'client_secret: is not a known field'],
    ];
    for (const [change, detail] of cases) {
      const res = await createClient(token, { ...confidential, ...change });
      expect([change, res.status, res.body.detail]).toEqual([change, 422, detail]);
    }
    expect((await request(api('/oauth/clients'), { token })).body).toEqual([]);
    expect(await storedClients(tenantId)).toEqual([]);
    expect(await eventsOf(tenantId, 'oauth.client_created')).toEqual([]);
  });

  it('changes a registration with every rule checked again; the client type is fixed', async () => {
    const { token, tenantId } = await owner();
    const created = (
      await createClient(token, { ...confidential, backchannel_logout_uri: 'https://billing.example.com/bcl' })
    ).body;
    const clientId = created.client_id as string;

    const renamed = await client(token, clientId, {
      method: 'PATCH',
      json: {
        name: 'Billing',
        redirect_uris: ['https://billing.example.com/cb2', 'http://localhost:3000/cb'],
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        backchannel_logout_uri: null,
        client_type: 'confidential',
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      client_id: clientId,
      name: 'Billing',
      client_type: 'confidential',
      redirect_uris: ['https://billing.example.com/cb2', 'http://localhost:3000/cb'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      scopes: ['openid', 'profile', 'email'],
      backchannel_logout_uri: null,
    });
    expect(renamed.body).not.toHaveProperty('client_secret');
    expect((await client(token, clientId)).body).toEqual(renamed.body);
    const [updated] = await eventsOf(tenantId, 'oauth.client_updated');
    expect(updated?.data).toEqual({
      client_id: clientId,
      changed: ['name', 'redirect_uris', 'grant_types', 'backchannel_logout_uri'],
    });

    const refused: Array<[Record<string, unknown>, string]> = [
      [{ client_type: 'public' }, 'client_type: cannot be changed; register a new client instead'],
      [{ grant_types: ['refresh_token'] }, 'grant_types: refresh_token requires authorization_code'],
      [{ redirect_uris: [] }, 'redirect_uris: must hold 1 to 20 URIs'],
      [
        { redirect_uris: ['https://billing.example.com/*'] },
        expect.stringMatching(/^redirect_uris\.0: must not contain a wildcard/),
      ],
      [{ name: 'a\nb' }, 'name: must not contain control characters'],
      [{ scopes: ['admin'] }, 'scopes: unknown scope "admin" (allowed: openid, profile, email)'],
      [{ backchannel_logout_uri: 'https://intranet/bcl' }, expect.stringMatching(/^backchannel_logout_uri: host must/)],
      [{ secret_hash: 'x' }, 'secret_hash: is not a known field'],
    ];
    for (const [change, detail] of refused) {
      const res = await client(token, clientId, { method: 'PATCH', json: change });
      expect([change, res.status, res.body.detail]).toEqual([change, 422, detail]);
    }
    // Nothing of the refused changes was stored.
    expect((await client(token, clientId)).body).toEqual(renamed.body);
    expect(await eventsOf(tenantId, 'oauth.client_updated')).toHaveLength(1);

    // A public client cannot take the client-credentials grant, however it is changed.
    const publicClient = (await createClient(token, { ...confidential, client_type: 'public', name: 'SPA' })).body
      .client_id;
    const widened = await client(token, publicClient, {
      method: 'PATCH',
      json: { grant_types: ['authorization_code', 'client_credentials'] },
    });
    expect([widened.status, widened.body.detail]).toEqual([
      422,
      'grant_types: client_credentials is only for confidential clients',
    ]);
    const toConfidential = await client(token, publicClient, {
      method: 'PATCH',
      json: { client_type: 'confidential' },
    });
    expect([toConfidential.status, toConfidential.body.detail]).toEqual([
      422,
      'client_type: cannot be changed; register a new client instead',
    ]);
    const [publicRow] = (await storedClients(tenantId)).filter((row) => row.client_id === publicClient);
    expect(publicRow?.secret_hash).toBeNull();
  });

  it('rotates a confidential client’s secret: the new one is answered once and the old hash is gone', async () => {
    const { token, tenantId } = await owner();
    const created = (await createClient(token, confidential)).body;
    const clientId = created.client_id as string;
    const res = await rotate(token, clientId);
    expect(res.status, res.text).toBe(200);
    expect(res.body.client_secret).toMatch(SECRET);
    expect(res.body.client_secret).not.toBe(created.client_secret);
    expect(res.body).toMatchObject({ client_id: clientId, name: 'Billing portal', client_type: 'confidential' });
    const [stored] = await storedClients(tenantId);
    expect(stored!.secret_hash).toBe(sha256Hex(res.body.client_secret));
    expect(stored!.secret_hash).not.toBe(sha256Hex(created.client_secret));
    expect((await eventsOf(tenantId, 'oauth.client_secret_rotated')).map((e) => e.data)).toEqual([
      { client_id: clientId },
    ]);
    expect((await client(token, clientId)).text).not.toContain(res.body.client_secret);

    const publicClient = (await createClient(token, { ...confidential, client_type: 'public' })).body.client_id;
    const refused = await rotate(token, publicClient);
    expect([refused.status, refused.body.detail]).toEqual([409, 'A public client has no secret to rotate']);
    expect((await rotate(token, UNKNOWN_CLIENT)).status).toBe(404);
  });

  it('deletes a client (204, then 404 everywhere) and publishes oauth.client_created and oauth.client_deleted', async () => {
    const { token, tenantId } = await owner();
    const created = (await createClient(token, confidential)).body;
    const clientId = created.client_id as string;
    const deleted = await client(token, clientId, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await client(token, clientId)).status).toBe(404);
    expect((await client(token, clientId, { method: 'DELETE' })).status).toBe(404);
    expect((await client(token, clientId, { method: 'PATCH', json: { name: 'x' } })).status).toBe(404);
    expect((await rotate(token, clientId)).status).toBe(404);
    expect((await request(api('/oauth/clients'), { token })).body).toEqual([]);
    expect(await storedClients(tenantId)).toEqual([]);

    const data = { client_id: clientId, name: 'Billing portal', client_type: 'confidential' };
    const createdOutbox = await outboxOf(tenantId, 'oauth.client_created');
    const deletedOutbox = await outboxOf(tenantId, 'oauth.client_deleted');
    expect(createdOutbox.map((row) => row.payload)).toEqual([
      { id: expect.any(String), type: 'oauth.client_created', schema_version: 1, data },
    ]);
    expect(deletedOutbox.map((row) => row.payload)).toEqual([
      { id: expect.any(String), type: 'oauth.client_deleted', schema_version: 1, data },
    ]);
    expect(JSON.stringify(createdOutbox)).not.toContain(created.client_secret);
    expect((await eventsOf(tenantId, 'oauth.client_deleted')).map((e) => e.actor_type)).toEqual(['human']);
  });

  it('answers another organization’s client exactly like an unknown one', async () => {
    const mine = await owner();
    const theirs = await owner();
    const theirClient = (await createClient(theirs.token, confidential)).body.client_id as string;
    const mineClient = (await createClient(mine.token, { ...confidential, name: 'Mine' })).body.client_id as string;
    const attempts = (clientId: string) => [
      () => client(mine.token, clientId),
      () => client(mine.token, clientId, { method: 'PATCH', json: { name: 'Taken over' } }),
      () => rotate(mine.token, clientId),
      () => client(mine.token, clientId, { method: 'DELETE' }),
    ];
    const foreign = attempts(theirClient);
    const unknown = attempts(UNKNOWN_CLIENT);
    for (let i = 0; i < foreign.length; i++) {
      const a = await foreign[i]!();
      const b = await unknown[i]!();
      expect(a.status).toBe(404);
      expect(shape(a)).toEqual(shape(b));
    }
    const malformed = await client(mine.token, 'not-a-client-id');
    expect(shape(malformed)).toEqual(shape(await client(mine.token, UNKNOWN_CLIENT)));
    // The lists are per organization, and their client is untouched.
    expect((await request(api('/oauth/clients'), { token: mine.token })).body.map((c: any) => c.client_id)).toEqual([
      mineClient,
    ]);
    const still = await client(theirs.token, theirClient);
    expect(still.body).toMatchObject({ name: 'Billing portal' });
    expect(await eventsOf(mine.tenantId, 'oauth.client_deleted')).toEqual([]);
  });
});

describe('who may administer OAuth clients and resources', () => {
  const routes = (clientId: string, resourceId: string) => [
    { method: 'POST', path: '/oauth/clients', json: confidential },
    { method: 'GET', path: '/oauth/clients' },
    { method: 'GET', path: `/oauth/clients/${clientId}` },
    { method: 'PATCH', path: `/oauth/clients/${clientId}`, json: { name: 'Renamed' } },
    { method: 'POST', path: `/oauth/clients/${clientId}/rotate-secret` },
    { method: 'DELETE', path: `/oauth/clients/${clientId}` },
    { method: 'POST', path: '/oauth/resources', json: { identifier: 'https://api.example.com', name: 'API' } },
    { method: 'GET', path: '/oauth/resources' },
    { method: 'PATCH', path: `/oauth/resources/${resourceId}`, json: { enabled: false } },
  ];
  const call = (token: string | undefined, route: ReturnType<typeof routes>[number]) =>
    request(api(route.path), { method: route.method, ...(token ? { token } : {}), json: route.json });

  it('needs a credential (401) and tenant:manage (403 for a member); nothing changes', async () => {
    const org = await owner();
    const clientId = (await createClient(org.token, confidential)).body.client_id as string;
    const resourceId = (
      await request(api('/oauth/resources'), {
        token: org.token,
        json: { identifier: 'https://orders.example.com', name: 'Orders' },
      })
    ).body.id as string;
    const member = await addMember(svc, org, 'member');
    const auditor = await addMember(svc, org, 'auditor');
    for (const route of routes(clientId, resourceId)) {
      const anonymous = await call(undefined, route);
      expect([route.method, route.path, anonymous.status]).toEqual([route.method, route.path, 401]);
      for (const person of [member, auditor]) {
        const res = await call(person.token, route);
        expect([route.method, route.path, res.status, res.body.detail]).toEqual([
          route.method,
          route.path,
          403,
          'Missing permission: tenant:manage',
        ]);
      }
    }
    expect((await request(api('/oauth/clients'), { token: org.token })).body).toHaveLength(1);
    const [resource] = (await request(api('/oauth/resources'), { token: org.token })).body;
    expect(resource).toMatchObject({ id: resourceId, enabled: true });
  });

  it('admits an API key holding tenant:manage, refuses one without it', async () => {
    const org = await owner();
    const issue = async (scopes: string[]) =>
      (await request(api('/tenants/api-keys'), { token: org.token, json: { label: 'ci', scopes } })).body.key as string;
    const manager = await issue(['tenant:manage']);
    const reader = await issue(['tenant:read']);
    const created = await createClient(manager, confidential);
    expect(created.status, created.text).toBe(201);
    expect((await request(api('/oauth/clients'), { token: manager })).body).toHaveLength(1);
    const rotated = await rotate(manager, created.body.client_id);
    expect(rotated.status).toBe(200);
    expect((await eventsOf(org.tenantId, 'oauth.client_created')).map((e) => e.actor_type)).toEqual(['service']);
    const refused = await request(api('/oauth/clients'), { token: reader });
    expect([refused.status, refused.body.detail]).toEqual([403, 'Missing permission: tenant:manage']);
  });

  it('answers 403 while the organization is quarantined, and opens when it is approved', async () => {
    const org = await owner();
    const setQuarantine = (on: boolean) =>
      changeDirectly(svc, sql`update tenants set quarantined = ${on} where id = ${org.tenantId}`);
    await setQuarantine(true);
    for (const route of routes(UNKNOWN_CLIENT, UNKNOWN_RESOURCE)) {
      const res = await call(org.token, route);
      expect([route.method, route.path, res.status]).toEqual([route.method, route.path, 403]);
      expect(res.body.detail).toMatch(/awaiting approval/);
    }
    await setQuarantine(false);
    expect((await request(api('/oauth/clients'), { token: org.token })).body).toEqual([]);
    expect((await request(api('/oauth/resources'), { token: org.token })).body).toEqual([]);
    expect((await createClient(org.token, confidential)).status).toBe(201);
  });
});

describe('OAuth resources (RFC 8707)', () => {
  const createResource = (token: string, body: Record<string, unknown>) =>
    request(api('/oauth/resources'), { token, json: body });
  const patchResource = (token: string, id: string, json: Record<string, unknown>) =>
    request(api(`/oauth/resources/${id}`), { method: 'PATCH', token, json });

  it('registers, lists, renames, disables and re-enables a resource', async () => {
    const { token, tenantId } = await owner();
    const res = await createResource(token, { identifier: 'https://api.example.com/v1', name: 'Orders API' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      identifier: 'https://api.example.com/v1',
      name: 'Orders API',
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await createResource(token, { identifier: 'urn:example:billing', name: 'Billing', enabled: false });
    expect(second.status).toBe(201);
    expect(second.body.enabled).toBe(false);
    const list = await request(api('/oauth/resources'), { token });
    expect(list.body.map((r: any) => [r.identifier, r.enabled])).toEqual([
      ['https://api.example.com/v1', true],
      ['urn:example:billing', false],
    ]);

    const disabled = await patchResource(token, res.body.id, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: res.body.id, enabled: false, name: 'Orders API' });
    const renamed = await patchResource(token, res.body.id, { name: 'Orders', enabled: true });
    expect(renamed.body).toMatchObject({ identifier: 'https://api.example.com/v1', name: 'Orders', enabled: true });
    expect((await request(api('/oauth/resources'), { token })).body[0]).toEqual(renamed.body);

    expect((await eventsOf(tenantId, 'oauth.resource_created')).map((e) => e.data)).toEqual([
      { resource_id: res.body.id, identifier: 'https://api.example.com/v1', name: 'Orders API', enabled: true },
      { resource_id: second.body.id, identifier: 'urn:example:billing', name: 'Billing', enabled: false },
    ]);
    expect((await eventsOf(tenantId, 'oauth.resource_updated')).map((e) => e.data)).toEqual([
      { resource_id: res.body.id, identifier: 'https://api.example.com/v1', changed: ['enabled'], enabled: false },
      {
        resource_id: res.body.id,
        identifier: 'https://api.example.com/v1',
        changed: ['name', 'enabled'],
        enabled: true,
      },
    ]);
  });

  it('refuses an identifier registered already, in this organization or another (409): it has one owner', async () => {
    const mine = await owner();
    const theirs = await owner();
    const body = { identifier: 'https://api.unique.example.com', name: 'API' };
    expect((await createResource(mine.token, body)).status).toBe(201);
    for (const token of [mine.token, theirs.token]) {
      const duplicate = await createResource(token, { ...body, name: 'Again' });
      expect([duplicate.status, duplicate.body.detail]).toEqual([
        409,
        'That resource identifier is registered already',
      ]);
    }
    expect((await request(api('/oauth/resources'), { token: mine.token })).body).toHaveLength(1);
    expect((await request(api('/oauth/resources'), { token: theirs.token })).body).toHaveLength(0);
  });

  it('refuses an identifier or a name that breaks a rule (422 naming it), and a changed identifier', async () => {
    const { token } = await owner();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ identifier: 'https://api.example.com/#v1' }, 'identifier: must not contain a fragment (RFC 8707 section 2)'],
      [{ identifier: 'api.example.com' }, 'identifier: must be an absolute URI (RFC 8707 section 2)'],
      [{ identifier: '/v1' }, 'identifier: must be an absolute URI (RFC 8707 section 2)'],
      [{ identifier: '' }, 'identifier: must not be empty'],
      [{ identifier: `https://api.example.com/${'a'.repeat(2000)}` }, 'identifier: must be at most 2000 characters'],
      [{ name: '' }, 'name: must be 1 to 255 characters'],
      [{ name: 'API\u0001' }, 'name: must not contain control characters'],
      // NUL is refused by the kernel's text rule (issue 17) before the field's own rule sees it.
      [{ name: 'API\u0000' }, 'name: must not contain NUL characters or unpaired surrogates'],
      [{ enabled: 'yes' }, 'enabled: must be boolean'],
    ];
    for (const [change, detail] of cases) {
      const res = await createResource(token, { identifier: 'https://api.example.com', name: 'API', ...change });
      expect([change, res.status, res.body.detail]).toEqual([change, 422, detail]);
    }
    expect((await request(api('/oauth/resources'), { token })).body).toEqual([]);
    const id = (await createResource(token, { identifier: 'https://api.example.com', name: 'API' })).body.id;
    const moved = await patchResource(token, id, { identifier: 'https://other.example.com' });
    expect([moved.status, moved.body.detail]).toEqual([422, 'identifier: is not a known field']);
    const badName = await patchResource(token, id, { name: 'x'.repeat(256) });
    expect([badName.status, badName.body.detail]).toEqual([422, 'name: must be 1 to 255 characters']);
  });

  it('answers another organization’s resource exactly like an unknown one', async () => {
    const mine = await owner();
    const theirs = await owner();
    const theirId = (await createResource(theirs.token, { identifier: 'https://api.theirs.example.com', name: 'API' }))
      .body.id as string;
    const foreign = await patchResource(mine.token, theirId, { enabled: false });
    const unknown = await patchResource(mine.token, UNKNOWN_RESOURCE, { enabled: false });
    expect(foreign.status).toBe(404);
    expect(shape(foreign)).toEqual(shape(unknown));
    expect(shape(await patchResource(mine.token, 'nope', { enabled: false }))).toEqual(shape(unknown));
    expect((await request(api('/oauth/resources'), { token: mine.token })).body).toEqual([]);
    expect((await request(api('/oauth/resources'), { token: theirs.token })).body[0]).toMatchObject({ enabled: true });
  });
});
