import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { type JsonResponse, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import type { TestService } from '../support/service.js';

/** Shared helpers of the SCIM e2e files (not a test file itself). */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export function scimHarness(svc: () => TestService) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;
  const scimUrl = (path: string) => `${svc().url}/api/v1/scim/v2${path}`;

  /** A SCIM call as identity providers make it: `application/scim+json` both ways. */
  function scim(
    token: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return request(scimUrl(path), {
      method,
      ...(token ? { token } : {}),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: {
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json; charset=utf-8' }),
        ...headers,
      },
    });
  }

  const patchOp = (operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

  /** The organization's SCIM token, minted by its owner. */
  async function mintToken(ownerToken: string) {
    const res = await request(api('/tenants/scim/token'), { method: 'POST', token: ownerToken });
    expect(res.status, res.text).toBe(201);
    return res.body as { token: string; base_url: string; token_hint: string; enabled: boolean };
  }

  /**
   * A new organization on the Enterprise plan (SCIM is an Enterprise feature; its plan has no seat cap), its owner
   * and its SCIM token. The plan is set directly, as the operator plane would.
   */
  async function provisionedOrg(label = 'scimowner') {
    const owner = await signUpOwner(svc().url, label);
    await svc().deps.database.db.execute(sql`update tenants set plan = 'enterprise' where id = ${owner.tenantId}`);
    const { token } = await mintToken(owner.token);
    return { owner, token };
  }

  /** Expects an RFC 7644 error document with `status` (and `scimType` when given). */
  function expectScimError(res: JsonResponse, status: number, scimType?: string) {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(res.body).toEqual({
      schemas: [ERROR_SCHEMA],
      status: String(status),
      detail: expect.any(String),
      ...(scimType ? { scimType } : {}),
    });
  }

  const db = () => svc().deps.database.db;

  const roster = async (ownerToken: string) =>
    (await request(api('/members'), { token: ownerToken })).body as Array<{
      membership_id: string;
      user_id: string;
      email: string;
      name: string | null;
      role: string;
      status: string;
      scim_managed: boolean;
    }>;

  const eventsOf = (tenantId: string, action: string) =>
    rows<{ action: string; data: Record<string, unknown>; actor_type: string; subject_user_id: string | null }>(
      db(),
      sql`select action, data, actor_type, subject_user_id from events
          where tenant_id = ${tenantId} and action = ${action} order by occurred_at, id`,
    );

  return { api, scimUrl, scim, patchOp, mintToken, provisionedOrg, expectScimError, db, roster, eventsOf };
}

/** A unique address for a provisioned person. */
let counter = 0;
export function person(label = 'scim') {
  counter += 1;
  const unique = `${label}${counter}${Math.random().toString(36).slice(2, 8)}`;
  return { email: `${unique}@example.com`, unique };
}

/** A User as Okta's SCIM 2.0 integration creates it (password sync on: the password is ignored). */
export function oktaUser(email: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [USER_SCHEMA],
    userName: email,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: email, type: 'work' }],
    displayName: 'Test User',
    locale: 'en-US',
    externalId: `00u${Math.random().toString(36).slice(2, 14)}`,
    groups: [],
    password: '1mz050nq',
    active: true,
    ...extra,
  };
}
