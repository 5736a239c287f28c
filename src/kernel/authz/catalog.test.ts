import { describe, expect, it } from 'vitest';
import {
  catalogDocument,
  isReadOnlyPermission,
  isSystemRole,
  PERMISSIONS,
  permissionsOfRole,
  ROLES,
  SYSTEM_ROLES,
} from './catalog.js';

const sorted = (codes: Iterable<string>) => [...codes].sort();

describe('permission catalogue', () => {
  it('names every permission once, as domain:action', () => {
    const codes = PERMISSIONS.map((p) => p.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code, code).toMatch(/^[a-z_]+(:[a-z_]+)+$/);
  });

  it('flags read-only permissions, and an unknown code is never read-only', () => {
    expect(isReadOnlyPermission('tenant:read')).toBe(true);
    expect(isReadOnlyPermission('manifest:plan')).toBe(true);
    expect(isReadOnlyPermission('tenant:manage')).toBe(false);
    expect(isReadOnlyPermission('identity:self:write')).toBe(false);
    expect(isReadOnlyPermission('made:up:read')).toBe(false);
    expect(isReadOnlyPermission('')).toBe(false);
  });
});

describe('system roles', () => {
  it('knows exactly the seven system roles', () => {
    expect(SYSTEM_ROLES.every(isSystemRole)).toBe(true);
    expect(isSystemRole('Owner')).toBe(false);
    expect(isSystemRole('superuser')).toBe(false);
    expect(isSystemRole('')).toBe(false);
    expect(ROLES.map((r) => r.code)).toEqual([...SYSTEM_ROLES]);
  });

  it('makes every role grantable except owner and customer', () => {
    expect(ROLES.filter((r) => !r.grantable).map((r) => r.code)).toEqual(['owner', 'customer']);
  });

  it('gives the owner every permission', () => {
    expect(sorted(permissionsOfRole('owner'))).toEqual(sorted(PERMISSIONS.map((p) => p.code)));
  });

  it('gives member, customer and an unknown role only the baseline', () => {
    for (const role of ['member', 'customer', 'no-such-role', '']) {
      expect(sorted(permissionsOfRole(role)), role).toEqual(['identity:self:write']);
    }
  });

  it('keeps the operator plane, compliance administration and PHI logging from the admin', () => {
    const admin = permissionsOfRole('admin');
    for (const code of ['operator:read', 'operator:manage', 'compliance:admin', 'hipaa:phi:log']) {
      expect(admin.has(code), code).toBe(false);
    }
    expect(admin.has('tenant:manage')).toBe(true);
    expect(admin.has('members:manage')).toBe(true);
    expect(admin.size).toBe(PERMISSIONS.length - 4);
  });

  it('lets the auditor read everything but the operator plane and change nothing but their own record', () => {
    const auditor = permissionsOfRole('auditor');
    const writes = [...auditor].filter((code) => !isReadOnlyPermission(code));
    expect(writes).toEqual(['identity:self:write']);
    expect(auditor.has('operator:read')).toBe(false);
    const readable = PERMISSIONS.filter((p) => p.read_only && !p.code.startsWith('operator:')).map((p) => p.code);
    expect(sorted(auditor)).toEqual(sorted([...readable, 'identity:self:write']));
  });

  it('gives the security operator exactly the command-center set', () => {
    expect(sorted(permissionsOfRole('security_operator'))).toEqual([
      'agents:manage',
      'agents:read',
      'approvals:decide',
      'approvals:read',
      'autonomy:approve',
      'autonomy:disable',
      'autonomy:read',
      'command:operate',
      'command:read',
      'identity:self:write',
      'members:read',
      'tenant:read',
    ]);
  });

  it('gives the compliance officer privacy and governance, not tenant or member management', () => {
    const officer = permissionsOfRole('compliance_officer');
    expect(officer.has('compliance:admin')).toBe(true);
    expect(officer.has('hipaa:phi:log')).toBe(true);
    expect(officer.has('tenant:manage')).toBe(false);
    expect(officer.has('members:manage')).toBe(false);
  });
});

describe('catalogue document', () => {
  const document = catalogDocument();

  it('carries a 16-hex-digit version that does not change between calls', () => {
    expect(document.version).toMatch(/^[0-9a-f]{16}$/);
    expect(catalogDocument().version).toBe(document.version);
  });

  it('marks only the auditor read-only (the baseline of member and customer is a write)', () => {
    expect(document.roles.filter((r) => r.read_only).map((r) => r.code)).toEqual(['auditor']);
  });

  it('lists each role’s permissions sorted, baseline included', () => {
    for (const role of document.roles) {
      expect(role.permissions, role.code).toEqual(sorted(permissionsOfRole(role.code)));
      expect(role.permissions, role.code).toContain('identity:self:write');
    }
  });

  it('hands out copies: changing the document leaves the catalogue alone', () => {
    document.permissions[0]!.read_only = !document.permissions[0]!.read_only;
    expect(catalogDocument().permissions[0]!.read_only).toBe(PERMISSIONS[0]!.read_only);
  });
});
