import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { scimHarness, USER_SCHEMA } from './scim-support.js';

/**
 * Issue 17 item 3: a NUL (or an unpaired surrogate) in any JSON string reached PostgreSQL and answered 500. One
 * kernel rule refuses it before anything reads it: 422 naming the field, a SCIM 400 invalidValue document on
 * the SCIM surface, and nothing changes.
 */
let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const { scim, provisionedOrg, expectScimError } = scimHarness(() => svc);
const NUL = '\u0000';

function refused(res: { status: number; body: { detail?: string } }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.detail).toBe(`${field}: must not contain NUL characters or unpaired surrogates`);
}

describe('NUL and unpaired surrogates in request text', () => {
  it('public sign-in and sign-up: 422 naming tenant_slug or organization_name, and no account is created', async () => {
    const owner = await signUpOwner(svc.url);
    refused(
      await request(api('/auth/login'), {
        json: { email: owner.email, password: owner.password, tenant_slug: `${owner.slug}${NUL}` },
      }),
      'tenant_slug',
    );
    const account = newAccount('nul');
    refused(
      await request(api('/auth/signup'), { json: { ...account, organization_name: `Acme${NUL}` } }),
      'organization_name',
    );
    refused(
      await request(api('/auth/signup'), { json: { ...account, organization_name: 'Acme \ud800 Corp' } }),
      'organization_name',
    );
    const created = await rows(svc.deps.database.db, sql`select 1 from users where email_key = ${account.email}`);
    expect(created).toHaveLength(0);
  });

  it('organization administration: webhook description, API-key label, retention notes, DSR description', async () => {
    const owner = await signUpOwner(svc.url);
    const { token } = owner;
    refused(
      await request(api('/tenants/webhooks'), {
        token,
        json: { url: 'https://hooks.example.com/x', event_types: ['apikey.issued'], description: `a${NUL}b` },
      }),
      'description',
    );
    refused(
      await request(api('/tenants/api-keys'), { token, json: { label: `ci${NUL}`, scopes: ['members:read'] } }),
      'label',
    );
    refused(
      await request(api('/retention/events'), { method: 'PUT', token, json: { retention_days: 400, notes: NUL } }),
      'notes',
    );
    refused(
      await request(api('/gdpr/requests'), { token, json: { request_type: 'access', description: `x${NUL}` } }),
      'description',
    );
    // Query strings and path parameters too, and a NUL in a property name of a free-form object.
    refused(await request(api(`/tenants/api-keys?cursor=${encodeURIComponent(NUL)}`), { token }), 'cursor');
    refused(await request(api(`/tenants/webhooks/${encodeURIComponent(`wh${NUL}`)}/deliveries`), { token }), 'id');
    // Nothing was stored (a refusal changes nothing).
    const notes = await rows(svc.deps.database.db, sql`select 1 from retention_policies where notes is not null`);
    expect(notes).toHaveLength(0);
    for (const table of ['api_keys', 'data_subject_requests', 'webhook_endpoints']) {
      const stored = await rows(
        svc.deps.database.db,
        sql`select 1 from ${sql.identifier(table)} where tenant_id = ${owner.tenantId}`,
      );
      expect(stored, table).toHaveLength(0);
    }
  });

  it('a stranger still gets 401, not a validation answer', async () => {
    const res = await request(api('/tenants/api-keys'), { json: { label: NUL, scopes: [] } });
    expect(res.status).toBe(401);
  });

  it('SCIM: a NUL in a filter or an attribute is a 400 invalidValue document, and nothing is provisioned', async () => {
    const { token } = await provisionedOrg();
    const filtered = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "a${NUL}b"`)}`);
    expectScimError(filtered, 400, 'invalidValue');
    expect(filtered.body.detail).toMatch(/^filter: must not contain NUL/);
    const created = await scim(token, 'POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: `nul${NUL}@example.com`,
      emails: [{ value: 'nul@example.com', primary: true }],
    });
    expectScimError(created, 400, 'invalidValue');
    expect(created.body.detail).toMatch(/^userName: /);
    const list = await scim(token, 'GET', '/Users');
    expect(list.body.totalResults).toBe(0);
  });
});
