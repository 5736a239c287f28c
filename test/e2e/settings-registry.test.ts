import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

let svc: TestService;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  svc = await startService({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const db = () => svc.deps.database.db;

/** A second person in the organization with `role`, signed in. */
async function memberWithRole(ownerToken: string, role: string) {
  const person = newAccount(role.replace('_', ''));
  expect(
    (await request(api('/members/invites'), { token: ownerToken, json: { email: person.email, role } })).status,
  ).toBe(201);
  const token = extractToken((await smtp.waitFor(person.email)).text);
  const accepted = await request(api('/invites/accept'), { json: { token, password: person.password } });
  expect(accepted.status).toBe(200);
  return accepted.body.access_token as string;
}

const patch = (token: string, key: string, value: unknown) =>
  request(api(`/tenants/config/${key}`), { method: 'PATCH', token, json: { value } });

describe('GET /tenants/config/schema', () => {
  it('lists every tenant-editable key of 2.13 with its record fields and the autonomy ceilings', async () => {
    const { token } = await signUpOwner(svc.url, 'settings');
    const res = await request(api('/tenants/config/schema'), { token });
    expect(res.status).toBe(200);
    const byKey = new Map<string, unknown>(res.body.map((r: { key: string }) => [r.key, r]));
    expect([...byKey.keys()].sort()).toEqual(
      [
        'auth.magic_link_enabled',
        'auth.social_login_enabled',
        'auth.ciam_signup_enabled',
        'members.domain_join_enabled',
        'autonomy.level_contain_source',
        'autonomy.level_contain_non_human',
        'autonomy.level_raise_assurance',
        'autonomy.level_revoke_access',
        'autonomy.level_disable_principal',
        'autonomy.disabled_until',
      ].sort(),
    );
    expect(byKey.get('auth.ciam_signup_enabled')).toEqual({
      key: 'auth.ciam_signup_enabled',
      summary: expect.any(String),
      type: 'boolean',
      default: false,
      value: false,
      overridden: false,
      risk: 'high',
    });
    expect(byKey.get('members.domain_join_enabled')).toMatchObject({ default: false, value: false });
    const full = ['manual', 'recommend', 'graduated', 'full'];
    const allowed = (key: string) => (byKey.get(key) as { allowed: string[] }).allowed;
    expect(allowed('autonomy.level_contain_source')).toEqual(full);
    expect(allowed('autonomy.level_raise_assurance')).toEqual(full);
    expect(allowed('autonomy.level_contain_non_human')).toEqual(full.slice(0, 3));
    expect(allowed('autonomy.level_revoke_access')).toEqual(full.slice(0, 3));
    expect(allowed('autonomy.level_disable_principal')).toEqual(full.slice(0, 2));
    for (const key of [...byKey.keys()].filter((k) => k.startsWith('autonomy.level_'))) {
      expect(byKey.get(key)).toMatchObject({ type: 'string', default: 'manual', value: 'manual' });
    }
    expect(byKey.get('autonomy.disabled_until')).toMatchObject({ type: 'string', default: '', format: 'instant' });
  });
});

describe('PATCH /tenants/config/{key}', () => {
  it('changes a value, which the registry reader and the schema then answer', async () => {
    const { token, tenantId } = await signUpOwner(svc.url, 'settings');
    const res = await patch(token, 'auth.magic_link_enabled', false);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'auth.magic_link_enabled', value: false, default: true, overridden: true });
    const read = await svc.deps.transactions.tenant(tenantId, (tx) =>
      svc.deps.settings.enabled(tx, tenantId, 'auth.magic_link_enabled'),
    );
    expect(read).toBe(false);
    const level = await patch(token, 'autonomy.level_contain_source', 'full');
    expect(level.body).toMatchObject({ value: 'full', overridden: true });
    // Back to the default: no longer overridden.
    expect((await patch(token, 'auth.magic_link_enabled', true)).body).toMatchObject({
      value: true,
      overridden: false,
    });
  });

  it('answers 400 stating the violated type, allowed set or format, and changes nothing', async () => {
    const { token } = await signUpOwner(svc.url, 'settings');
    const cases: Array<[string, unknown, RegExp]> = [
      ['auth.magic_link_enabled', 'false', /must be a boolean/],
      ['auth.magic_link_enabled', null, /must be a boolean/],
      ['auth.ciam_signup_enabled', 1, /must be a boolean/],
      ['autonomy.level_disable_principal', 'graduated', /must be one of: manual, recommend$/],
      ['autonomy.level_revoke_access', 'full', /must be one of: manual, recommend, graduated$/],
      ['autonomy.level_contain_source', true, /must be a string/],
      ['autonomy.disabled_until', 'tomorrow', /ISO 8601/],
      ['autonomy.disabled_until', '2030-01-01T00:00:00', /ISO 8601/],
    ];
    for (const [key, value, detail] of cases) {
      const res = await patch(token, key, value);
      expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(400);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.detail).toContain(key);
    }
    expect((await patch(token, 'autonomy.disabled_until', '2030-01-01T00:00:00Z')).status).toBe(200);
    expect((await patch(token, 'autonomy.disabled_until', '')).status).toBe(200);
    const schema = await request(api('/tenants/config/schema'), { token });
    for (const record of schema.body) expect(record.overridden, record.key).toBe(false);
  });

  it('answers 404 for an unknown key and 422 without a value', async () => {
    const { token } = await signUpOwner(svc.url, 'settings');
    expect((await patch(token, 'auth.password_min_length', 8)).status).toBe(404);
    expect((await patch(token, 'security.mfa_encryption_key', 'x')).status).toBe(404);
    const missing = await request(api('/tenants/config/auth.magic_link_enabled'), { method: 'PATCH', token, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toMatch(/^value/);
    // An unknown key is 404 whatever the body.
    const unknown = await request(api('/tenants/config/nope.key'), { method: 'PATCH', token, json: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Unknown setting');
  });

  it('raises a detection for a high-risk change and records an event for every change', async () => {
    const { token, tenantId } = await signUpOwner(svc.url, 'settings');
    expect((await patch(token, 'auth.social_login_enabled', false)).status).toBe(200);
    expect(
      await rows(
        db(),
        sql`select 1 from detections where tenant_id = ${tenantId} and rule_id = 'high-risk-setting-changed'`,
      ),
    ).toHaveLength(0);
    expect((await patch(token, 'members.domain_join_enabled', true)).status).toBe(200);
    const detections = await rows<{ group_key: string; severity: string }>(
      db(),
      sql`select group_key, severity from detections where tenant_id = ${tenantId} and rule_id = 'high-risk-setting-changed'`,
    );
    expect(detections).toEqual([{ group_key: 'setting:members.domain_join_enabled', severity: 'high' }]);
    const events = await rows<{ action: string }>(
      db(),
      sql`select action from events where tenant_id = ${tenantId} and action = 'setting.changed'`,
    );
    expect(events).toHaveLength(2);
  });
});

describe('GET /tenants/config/{key}/history', () => {
  it('lists changes newest first with who, old, new and when', async () => {
    const { token, userId } = await signUpOwner(svc.url, 'settings');
    await patch(token, 'autonomy.level_contain_source', 'recommend');
    svc.clock.advance(60_000);
    await patch(token, 'autonomy.level_contain_source', 'graduated');
    svc.clock.advance(60_000);
    await patch(token, 'autonomy.level_contain_source', 'graduated'); // unchanged: not a change
    const res = await request(api('/tenants/config/autonomy.level_contain_source/history'), { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        key: 'autonomy.level_contain_source',
        old_value: 'recommend',
        new_value: 'graduated',
        changed_by: { id: userId, type: 'human' },
        changed_at: expect.any(String),
      },
      {
        key: 'autonomy.level_contain_source',
        old_value: 'manual',
        new_value: 'recommend',
        changed_by: { id: userId, type: 'human' },
        changed_at: expect.any(String),
      },
    ]);
    expect(Date.parse(res.body[0].changed_at)).toBeGreaterThan(Date.parse(res.body[1].changed_at));
    expect((await request(api('/tenants/config/nope.key/history'), { token })).status).toBe(404);
    const empty = await request(api('/tenants/config/auth.social_login_enabled/history'), { token });
    expect(empty.body).toEqual([]);
  });

  it('is append-only in the database: the service role cannot change or remove a row of it', async () => {
    const { token, tenantId } = await signUpOwner(svc.url, 'settings');
    await patch(token, 'autonomy.level_contain_source', 'recommend');
    for (const statement of [
      sql`update tenant_setting_history set new_value = '"manual"'::jsonb`,
      sql`delete from tenant_setting_history`,
    ]) {
      const refused = await svc.deps.transactions
        .tenant(tenantId, (tx) => tx.execute(statement))
        .then(
          () => undefined,
          (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
        );
      expect(refused).toMatch(/permission denied/);
    }
    const res = await request(api('/tenants/config/autonomy.level_contain_source/history'), { token });
    expect(res.body.map((row: { new_value: string }) => row.new_value)).toEqual(['recommend']);
  });
});

describe('legacy GET|PATCH /tenants/settings', () => {
  it('serves ciam_signup_enabled only, backed by the registry and its history', async () => {
    const { token } = await signUpOwner(svc.url, 'settings');
    expect((await request(api('/tenants/settings'), { token })).body).toEqual({ ciam_signup_enabled: false });
    const changed = await request(api('/tenants/settings'), {
      method: 'PATCH',
      token,
      json: { ciam_signup_enabled: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ciam_signup_enabled: true });
    expect((await request(api('/tenants/settings'), { token })).body).toEqual({ ciam_signup_enabled: true });
    const history = await request(api('/tenants/config/auth.ciam_signup_enabled/history'), { token });
    expect(history.body).toHaveLength(1);
    const bad = await request(api('/tenants/settings'), {
      method: 'PATCH',
      token,
      json: { ciam_signup_enabled: 'yes' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('permission', () => {
  it('refuses every settings route with 403 without tenant:manage', async () => {
    const { token } = await signUpOwner(svc.url, 'settings');
    for (const role of ['member', 'auditor']) {
      const other = await memberWithRole(token, role);
      const calls = [
        request(api('/tenants/config/schema'), { token: other }),
        patch(other, 'auth.magic_link_enabled', false),
        request(api('/tenants/config/auth.magic_link_enabled/history'), { token: other }),
        request(api('/tenants/settings'), { token: other }),
        request(api('/tenants/settings'), { method: 'PATCH', token: other, json: { ciam_signup_enabled: true } }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status, role).toBe(403);
        expect(res.body.detail).toMatch(/tenant:manage/);
      }
    }
    expect((await request(api('/tenants/config/schema'))).status).toBe(401);
  });
});
