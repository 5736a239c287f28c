import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { oktaUser, person, scimHarness } from './scim-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const { api, scim, patchOp, mintToken, provisionedOrg, expectScimError, eventsOf, db } = scimHarness(() => svc);

const getConfig = (token: string) => request(api('/tenants/scim'), { token });
const patchConfig = (token: string, json: unknown) => request(api('/tenants/scim'), { method: 'PATCH', token, json });
const revoke = (token: string) => request(api('/tenants/scim/token'), { method: 'DELETE', token });

const onPlan = (tenantId: string, plan: string) =>
  db().execute(sql`update tenants set plan = ${plan} where id = ${tenantId}`);

describe('SCIM administration (/tenants/scim)', () => {
  it('needs a plan that includes SCIM (Enterprise); after a downgrade the token answers 404', async () => {
    const owner = await signUpOwner(svc.url, 'scimplan');
    const refused = await request(api('/tenants/scim/token'), { method: 'POST', token: owner.token });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/not included in the Free plan/);
    expect((await getConfig(owner.token)).status).toBe(404);

    await onPlan(owner.tenantId, 'enterprise');
    const { token } = await mintToken(owner.token);
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
    await onPlan(owner.tenantId, 'pro');
    expectScimError(await scim(token, 'GET', '/Users'), 404);
    await onPlan(owner.tenantId, 'enterprise');
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
  });

  it('is dormant (404) until a token is minted; the token is answered once with the base URL', async () => {
    const owner = await signUpOwner(svc.url, 'scimadmin');
    await onPlan(owner.tenantId, 'enterprise');
    expect((await getConfig(owner.token)).status).toBe(404);
    expect((await patchConfig(owner.token, { enabled: true })).status).toBe(404);
    expect((await revoke(owner.token)).status).toBe(404);

    const minted = await request(api('/tenants/scim/token'), { method: 'POST', token: owner.token });
    expect(minted.status).toBe(201);
    expect(minted.body).toEqual({
      token: expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/),
      base_url: `${svc.deps.config.baseUrl}/api/v1/scim/v2`,
      enabled: true,
      token_hint: minted.body.token.slice(0, 9),
      token_created_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const config = await getConfig(owner.token);
    expect(config.status).toBe(200);
    const { token: _plaintext, ...view } = minted.body;
    expect(config.body).toEqual(view);
    expect(config.text).not.toContain(minted.body.token);
    // Only the SHA-256 is stored.
    const stored = await rows<{ token_hash: string }>(
      db(),
      sql`select token_hash from scim_configs where tenant_id = ${owner.tenantId}`,
    );
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(minted.body.token);
    expect((await scim(minted.body.token, 'GET', '/Users')).status).toBe(200);
    expect(await eventsOf(owner.tenantId, 'scim.token_issued')).toEqual([
      expect.objectContaining({ actor_type: 'human', data: expect.objectContaining({ rotated: false }) }),
    ]);
  });

  it('rotation stops the previous token at once', async () => {
    const { owner, token: first } = await provisionedOrg();
    const created = await scim(first, 'POST', '/Users', oktaUser(person('rot').email));
    expect(created.status).toBe(201);
    const second = await mintToken(owner.token);
    expect(second.token).not.toBe(first);
    expectScimError(await scim(first, 'GET', '/Users'), 401);
    const read = await scim(second.token, 'GET', `/Users/${created.body.id}`);
    expect(read.status).toBe(200);
    expect((await eventsOf(owner.tenantId, 'scim.token_issued')).at(-1)?.data).toMatchObject({ rotated: true });
  });

  it('PATCH pauses provisioning: the token answers 404 (dormant) until resumed', async () => {
    const { owner, token } = await provisionedOrg();
    const paused = await patchConfig(owner.token, { enabled: false });
    expect(paused.status).toBe(200);
    expect(paused.body.enabled).toBe(false);
    for (const [method, path] of [
      ['GET', '/Users'],
      ['GET', '/Groups'],
      ['GET', '/ServiceProviderConfig'],
      ['POST', '/Users'],
    ] as const) {
      expectScimError(await scim(token, method, path, method === 'POST' ? { not: 'validated' } : undefined), 404);
    }
    expect((await getConfig(owner.token)).body.enabled).toBe(false);
    expect((await patchConfig(owner.token, { enabled: 'yes' })).status).toBe(422);
    expect((await patchConfig(owner.token, { enabled: true })).body.enabled).toBe(true);
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
    expect((await eventsOf(owner.tenantId, 'scim.config_changed')).map((e) => e.data)).toEqual([
      { enabled: false },
      { enabled: true },
    ]);
  });

  it('DELETE /tenants/scim/token: 204, the token stops, then 404 and SCIM is dormant again', async () => {
    const { owner, token } = await provisionedOrg();
    const created = await scim(token, 'POST', '/Users', oktaUser(person('revoked').email));
    expect((await revoke(owner.token)).status).toBe(204);
    expectScimError(await scim(token, 'GET', '/Users'), 401);
    expect((await revoke(owner.token)).status).toBe(404);
    expect((await getConfig(owner.token)).status).toBe(404);
    expect(await eventsOf(owner.tenantId, 'scim.token_revoked')).toHaveLength(1);
    // Provisioned users stay; a new token reaches them.
    const fresh = await mintToken(owner.token);
    expect((await scim(fresh.token, 'GET', `/Users/${created.body.id}`)).status).toBe(200);
  });

  it('needs tenant:manage (403 for a member and for the SCIM token itself; 401 without a credential)', async () => {
    const { owner, token } = await provisionedOrg();
    const member = await addMember(svc, owner, 'member');
    for (const credential of [member.token, token]) {
      expect((await getConfig(credential)).status).toBe(403);
      expect((await patchConfig(credential, { enabled: false })).status).toBe(403);
      expect((await request(api('/tenants/scim/token'), { method: 'POST', token: credential })).status).toBe(403);
      expect((await revoke(credential)).status).toBe(403);
    }
    expect((await request(api('/tenants/scim'))).status).toBe(401);
    // Still configured and working.
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
  });
});

describe('SCIM principals', () => {
  it('a SCIM token opens the SCIM routes only; other credentials get a SCIM 403 there', async () => {
    const { owner, token } = await provisionedOrg();
    expect((await request(api('/me'), { token })).status).toBe(403);
    expect((await request(api('/members'), { token })).status).toBe(403);
    expect((await request(api('/tenants/api-keys'), { token })).status).toBe(403);
    expectScimError(await scim(owner.token, 'GET', '/Users'), 403);
    // A SCIM token sent as DPoP is refused like a malformed credential.
    const dpop = await request(`${svc.url}/api/v1/scim/v2/Users`, { headers: { authorization: `DPoP ${token}` } });
    expectScimError(dpop, 401);
  });
});

describe('tenant isolation', () => {
  it('another organization’s token never sees, changes or references this organization’s users and groups', async () => {
    const a = await provisionedOrg('orga');
    const b = await provisionedOrg('orgb');
    const { email } = person('iso');
    const user = await scim(a.token, 'POST', '/Users', oktaUser(email));
    const group = await scim(a.token, 'POST', '/Groups', {
      displayName: 'Shared name',
      members: [{ value: user.body.id }],
    });
    expect([user.status, group.status]).toEqual([201, 201]);

    expectScimError(await scim(b.token, 'GET', `/Users/${user.body.id}`), 404);
    expectScimError(
      await scim(b.token, 'PATCH', `/Users/${user.body.id}`, patchOp([{ op: 'replace', value: { active: false } }])),
      404,
    );
    expectScimError(await scim(b.token, 'PUT', `/Users/${user.body.id}`, oktaUser(email)), 404);
    expectScimError(await scim(b.token, 'DELETE', `/Users/${user.body.id}`), 404);
    expectScimError(await scim(b.token, 'GET', `/Groups/${group.body.id}`), 404);
    expectScimError(await scim(b.token, 'DELETE', `/Groups/${group.body.id}`), 404);
    const listed = await scim(b.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect(listed.body.totalResults).toBe(0);
    expect((await scim(b.token, 'GET', '/Groups')).body.totalResults).toBe(0);
    // B cannot put A's user in its own group.
    const foreign = await scim(b.token, 'POST', '/Groups', {
      displayName: 'B group',
      members: [{ value: user.body.id }],
    });
    expectScimError(foreign, 400, 'invalidValue');
    // The same displayName is free in another organization.
    expect((await scim(b.token, 'POST', '/Groups', { displayName: 'Shared name' })).status).toBe(201);
    // A's user is untouched.
    expect((await scim(a.token, 'GET', `/Users/${user.body.id}`)).body.active).toBe(true);
  });
});

describe('quarantine', () => {
  it('answers 403 on the SCIM routes and the administration while the organization awaits approval', async () => {
    const { owner, token } = await provisionedOrg('quarantined');
    await changeDirectly(svc, sql`update tenants set quarantined = true where id = ${owner.tenantId}`);
    expectScimError(await scim(token, 'GET', '/Users'), 403);
    expect((await getConfig(owner.token)).status).toBe(403);
    await changeDirectly(svc, sql`update tenants set quarantined = false where id = ${owner.tenantId}`);
    expect((await scim(token, 'GET', '/Users')).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents every SCIM route with a summary, the scim tag and its error answers', async () => {
    const res = await request(api('/openapi.json'));
    expect(res.status).toBe(200);
    const scimPaths = [
      ['get', '/api/v1/scim/v2/Users', '200'],
      ['post', '/api/v1/scim/v2/Users', '201'],
      ['get', '/api/v1/scim/v2/Users/{id}', '200'],
      ['put', '/api/v1/scim/v2/Users/{id}', '200'],
      ['patch', '/api/v1/scim/v2/Users/{id}', '200'],
      ['delete', '/api/v1/scim/v2/Users/{id}', '204'],
      ['get', '/api/v1/scim/v2/Groups', '200'],
      ['post', '/api/v1/scim/v2/Groups', '201'],
      ['get', '/api/v1/scim/v2/Groups/{id}', '200'],
      ['put', '/api/v1/scim/v2/Groups/{id}', '200'],
      ['patch', '/api/v1/scim/v2/Groups/{id}', '204'],
      ['delete', '/api/v1/scim/v2/Groups/{id}', '204'],
      ['get', '/api/v1/scim/v2/ServiceProviderConfig', '200'],
      ['get', '/api/v1/scim/v2/ResourceTypes', '200'],
      ['get', '/api/v1/scim/v2/Schemas', '200'],
      ['get', '/api/v1/tenants/scim', '200'],
      ['patch', '/api/v1/tenants/scim', '200'],
      ['post', '/api/v1/tenants/scim/token', '201'],
      ['delete', '/api/v1/tenants/scim/token', '204'],
    ];
    for (const [method, path, success] of scimPaths) {
      const operation = res.body.paths?.[path!]?.[method!];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.tags).toEqual(['scim']);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([success, '401', '403']));
    }
  });
});
