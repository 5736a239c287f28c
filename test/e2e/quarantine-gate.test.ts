import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, request } from '../support/http.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const ID = '00000000-0000-7000-8000-000000000000';

/** Sets the flag as the onboarding flow will, directly in the database, once the node's caches heard of it. */
async function setQuarantine(tenantId: string, on: boolean): Promise<void> {
  await changeDirectly(svc, sql`update tenants set quarantined = ${on} where id = ${tenantId}`);
}

describe('quarantine gate', () => {
  it('answers 403 with an actionable reason on the whole /members family while the organization is quarantined', async () => {
    const signup = await request(api('/auth/signup'), { json: newAccount('quarantine') });
    const token = signup.body.access_token as string;
    const tenantId = (await request(api('/me'), { token })).body.tenant_id as string;
    const gated = () => [
      request(api('/members'), { token }),
      request(api(`/members/${ID}`), { method: 'PATCH', token, json: { role: 'auditor' } }),
      request(api(`/members/${ID}`), { method: 'DELETE', token }),
      request(api('/members/invites'), { token }),
      request(api('/members/invites'), { token, json: { email: newAccount().email } }),
      request(api(`/members/invites/${ID}`), { method: 'DELETE', token }),
      request(api('/members/domains'), { token }),
      request(api('/members/domains'), { token, json: { domain: 'quarantine.example' } }),
      request(api(`/members/domains/${ID}/verify`), { method: 'POST', token }),
      request(api(`/members/domains/${ID}`), { method: 'DELETE', token }),
    ];
    await setQuarantine(tenantId, true);
    for (const res of await Promise.all(gated())) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/awaiting approval/);
    }
    // Sign-in, the caller's own identity and organization settings stay available.
    expect((await request(api('/me'), { token })).status).toBe(200);
    expect((await request(api('/tenants/config/schema'), { token })).status).toBe(200);
    expect((await request(api('/entitlements'), { token })).status).toBe(200);
    // Nothing was created while gated.
    await setQuarantine(tenantId, false);
    expect((await request(api('/members/invites'), { token })).body).toEqual([]);
    expect((await request(api('/members/domains'), { token })).body).toEqual([]);
    const statuses = (await Promise.all(gated())).map((res) => res.status);
    expect(statuses).toEqual([200, 404, 404, 200, 201, 404, 200, 201, 404, 404]);
  });

  it('gates API keys and webhooks with the same reason, and opens them when the quarantine lifts', async () => {
    const signup = await request(api('/auth/signup'), { json: newAccount('quarantine-keys') });
    const token = signup.body.access_token as string;
    const tenantId = (await request(api('/me'), { token })).body.tenant_id as string;
    const gated = () => [
      request(api('/tenants/api-keys'), { token }),
      request(api('/tenants/api-keys'), { token, json: { label: 'ci', scopes: ['members:read'] } }),
      request(api(`/tenants/api-keys/${ID}/revoke`), { token, json: { reason: 'test' } }),
      request(api('/tenants/webhooks'), { token }),
      request(api(`/tenants/webhooks/${ID}`), { method: 'DELETE', token }),
    ];
    await setQuarantine(tenantId, true);
    for (const res of await Promise.all(gated())) {
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/awaiting approval/);
    }
    await setQuarantine(tenantId, false);
    // Nothing was created while gated; afterwards the same calls reach their handlers.
    expect((await request(api('/tenants/api-keys'), { token })).body).toEqual([]);
    const statuses = (await Promise.all(gated())).map((res) => res.status);
    expect(statuses).toEqual([200, 201, 404, 200, 404]);
  });
});
