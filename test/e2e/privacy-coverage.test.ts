import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

/**
 * Tables about people that no contributor exports or erases, each with the reason (docs/privacy.md).
 * Nothing else may be missing: a module that adds a table keyed by a person must register a contributor.
 */
const EXEMPT: Record<string, string> = {
  events:
    'kernel security events (subject_user_id): exported as the `security_events` section, kept on erasure as ' +
    'security evidence (GDPR Art. 17(3)(b), (e)); removed only by the `events` retention policy',
  audit_log: 'kernel hash-chained audit log: never modified or purged, or the chain would no longer verify',
};

/**
 * Columns naming a person in tables no contributor covers, each with the reason (docs/privacy.md). Actor
 * references are opaque ids of who made an administrative change, kept like the audit log's actors: once the
 * account is scrubbed they identify no one.
 */
const EXEMPT_COLUMNS: Record<string, string> = {
  'tenant_settings.updated_by': 'actor reference of the last change to a setting',
  'tenant_setting_history.changed_by': 'actor reference in the append-only history of a setting',
  'retention_policies.updated_by': 'actor reference of the last change to a policy',
  'pricing_content.updated_by': 'operator who replaced the global pricing content (not tenant data)',
  'approval_requests.decided_by': 'actor reference of the person who approved or denied a parked agent action',
  'early_access_requests.email': 'waitlist of the installation operator, outside organization-scoped rights',
  'early_access_requests.email_key': 'waitlist of the installation operator, outside organization-scoped rights',
  'early_access_requests.full_name': 'waitlist of the installation operator, outside organization-scoped rights',
  'early_access_requests.app_name': 'waitlist of the installation operator, outside organization-scoped rights',
  'onboarding_invite_codes.email': "the installation operator's invite codes, outside organization-scoped rights",
  'onboarding_invite_codes.email_key': "the installation operator's invite codes, outside organization-scoped rights",
  'onboarding_invite_codes.created_by': 'actor reference of the platform operator who issued an invite code',
  'autonomy_decisions.decided_by': 'actor reference of the person (or the engine) who adjudicated a decision',
  'autonomy_decisions.reverted_by': 'actor reference of the person who reverted a decision',
  'autonomy_kill_switch_notes.changed_by': 'actor reference of the last change to the autonomy kill switch',
  'distribution_credentials.created_by': 'actor reference of the platform operator who issued a credential',
  'distribution_credentials.revoked_by': 'actor reference of the platform operator who revoked a credential',
  'licences.issued_by': 'actor reference of the platform operator who issued a licence',
  'licences.revoked_by': 'actor reference of the platform operator who revoked a licence',
  'releases.created_by': 'actor reference of the platform operator who published a release',
  'releases.yanked_by': 'actor reference of the platform operator who yanked a release',
  'manifest_applies.approved_by': 'actor reference of the person whose approval an IAM manifest was applied under',
  'sso_oidc_connections.display_name': "an identity provider's display name, not a person's",
};

describe('personal-data registry coverage', () => {
  it('covers every table that holds a person’s rows, except the documented kernel exemptions', async () => {
    const personal = await rows<{ table_name: string }>(
      svc.deps.database.db,
      sql`select distinct c.table_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = ${svc.schema} and t.table_type = 'BASE TABLE'
            and (c.column_name = 'user_id' or c.column_name like '%\\_user\\_id')
          order by c.table_name`,
    );
    const tables = [...new Set(['users', ...personal.map((r) => r.table_name)])].sort();
    expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'memberships', 'consents', 'consent_events']));

    const covered = new Set(svc.deps.personalData.contributors().flatMap((c) => c.tables));
    const uncovered = tables.filter((table) => !covered.has(table) && !(table in EXEMPT));
    expect(uncovered).toEqual([]);
  });

  it('every column naming a person (an address, who did something) is covered or a documented reference', async () => {
    const columns = await rows<{ table_name: string; column_name: string }>(
      svc.deps.database.db,
      sql`select c.table_name, c.column_name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = ${svc.schema} and t.table_type = 'BASE TABLE'
            and (c.column_name like '%\_by' or c.column_name like '%email%' or c.column_name like '%\_name')
          order by c.table_name, c.column_name`,
    );
    const covered = new Set(svc.deps.personalData.contributors().flatMap((c) => c.tables));
    const uncovered = columns
      .map((c) => `${c.table_name}.${c.column_name}`)
      .filter((column) => !covered.has(column.split('.')[0]!) && !(column in EXEMPT_COLUMNS));
    expect(uncovered).toEqual([]);
    // The exemptions name real columns.
    const existing = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    expect(Object.keys(EXEMPT_COLUMNS).filter((column) => !existing.has(column))).toEqual([]);
  });

  it('names only tables that exist, each under one contributor', async () => {
    const existing = new Set(
      (
        await rows<{ table_name: string }>(
          svc.deps.database.db,
          sql`select table_name from information_schema.tables where table_schema = ${svc.schema}`,
        )
      ).map((r) => r.table_name),
    );
    const named = svc.deps.personalData.contributors().flatMap((c) => c.tables);
    expect(named.filter((table) => !existing.has(table))).toEqual([]);
    expect(named.filter((table, i) => named.indexOf(table) !== i)).toEqual([]);
    expect(Object.keys(EXEMPT).filter((table) => named.includes(table))).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents every privacy route with a summary, a tag and its responses', async () => {
    const res = await request(`${svc.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const expected = [
      ['get', '/api/v1/gdpr/my-data'],
      ['post', '/api/v1/gdpr/requests'],
      ['get', '/api/v1/gdpr/requests'],
      ['post', '/api/v1/gdpr/requests/{id}/cancel'],
      ['get', '/api/v1/gdpr/admin/requests'],
      ['post', '/api/v1/gdpr/admin/requests/{id}/verify'],
      ['post', '/api/v1/gdpr/admin/requests/{id}/reject'],
      ['post', '/api/v1/gdpr/admin/requests/{id}/process'],
      ['get', '/api/v1/consent'],
      ['post', '/api/v1/consent/{consent_type}/grant'],
      ['post', '/api/v1/consent/{consent_type}/withdraw'],
      ['get', '/api/v1/consent/history'],
      ['get', '/api/v1/consent/admin'],
      ['get', '/api/v1/consent/admin/history'],
      ['get', '/api/v1/retention'],
      ['put', '/api/v1/retention/{data_class}'],
      ['get', '/api/v1/retention/preview'],
    ];
    for (const [method, path] of expected) {
      const operation = res.body.paths?.[path!]?.[method!];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.tags).toEqual(['privacy']);
      expect(Object.keys(operation.responses)).toContain(
        method === 'post' && path!.endsWith('requests') ? '201' : '200',
      );
    }
  });
});
