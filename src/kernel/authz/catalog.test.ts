import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_VERSION,
  catalogDocument,
  catalogueVersionOf,
  expandPermissionPatterns,
  isKnownPermission,
  isReadOnlyPermission,
  isSystemRole,
  PERMISSIONS,
  permissionRisk,
  permissionsOfRole,
  ROLES,
  SEPARATION_OF_DUTIES,
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

  it('spells the Part B codes exactly as ARCHITECTURE.md does, and none of the old spellings', () => {
    const partB = [
      'agents:read',
      'agents:manage',
      'agents:kill',
      'agents:approvals:read',
      'agents:approvals:decide',
      'content:draft:write',
      'content:read',
      'content:review',
      'manifest:plan',
      'manifest:apply',
      'mcp:servers:read',
      'mcp:servers:manage',
      'command:read',
      'command:operate',
      'autonomy:read',
      'autonomy:manage',
      'autonomy:approve',
      'autonomy:disable',
      'payments:verify',
      'operator:read',
      'operator:manage',
    ];
    for (const code of partB) expect(isKnownPermission(code), code).toBe(true);
    for (const old of ['approvals:read', 'approvals:decide', 'payments:stepup', 'mcp:gateway']) {
      expect(isKnownPermission(old), old).toBe(false);
    }
  });

  it('scores every permission 0-100: reads at most 30, every change above 30', () => {
    for (const p of PERMISSIONS) {
      expect(Number.isInteger(p.risk) && p.risk >= 0 && p.risk <= 100, p.code).toBe(true);
      expect(p.read_only ? p.risk <= 30 : p.risk > 30, `${p.code} ${p.risk}`).toBe(true);
      expect(permissionRisk(p.code)).toBe(p.risk);
    }
  });

  it('scores kill switches, autonomy, tenant-wide administration and the operator plane high', () => {
    for (const code of [
      'agents:kill',
      'autonomy:disable',
      'autonomy:approve',
      'autonomy:manage',
      'tenant:manage',
      'manifest:apply',
    ]) {
      expect(permissionRisk(code), code).toBeGreaterThanOrEqual(80);
    }
    expect(permissionRisk('operator:manage')).toBe(100);
    expect(permissionRisk('agents:kill')).toBeGreaterThan(permissionRisk('agents:manage'));
  });

  it('scores an unknown code as the highest risk, so no ceiling lets it through', () => {
    expect(permissionRisk('made:up')).toBe(100);
    expect(permissionRisk('')).toBe(100);
    expect(permissionRisk('command:*')).toBe(100);
  });
});

describe('expandPermissionPatterns', () => {
  it('keeps an exact code', () => {
    expect(expandPermissionPatterns(['command:read'])).toEqual({ codes: ['command:read'], unknown: [] });
  });

  it('expands domain:* to every catalogued code under it, deeper segments included', () => {
    expect(expandPermissionPatterns(['command:*'])).toEqual({
      codes: ['command:read', 'command:operate'],
      unknown: [],
    });
    expect(expandPermissionPatterns(['agents:*']).codes).toEqual([
      'agents:read',
      'agents:manage',
      'agents:kill',
      'agents:approvals:read',
      'agents:approvals:decide',
    ]);
    expect(expandPermissionPatterns(['agents:approvals:*']).codes).toEqual([
      'agents:approvals:read',
      'agents:approvals:decide',
    ]);
  });

  it('does not treat a prefix as matching a longer domain name', () => {
    // `agent:*` must not reach `agents:read`.
    expect(expandPermissionPatterns(['agent:*'])).toEqual({ codes: [], unknown: ['agent:*'] });
  });

  it('names every pattern or code that matches nothing, and other wildcard shapes', () => {
    expect(
      expandPermissionPatterns(['nothing:*', 'made:up', '*', ':*', 'agents:*:read', 'command:re*', 'tenant:read']),
    ).toEqual({
      codes: ['tenant:read'],
      unknown: ['nothing:*', 'made:up', '*', ':*', 'agents:*:read', 'command:re*'],
    });
  });

  it('deduplicates, and lists codes in catalogue order whatever the order asked', () => {
    expect(expandPermissionPatterns(['command:operate', 'command:*', 'tenant:read', 'x', 'x'])).toEqual({
      codes: ['tenant:read', 'command:read', 'command:operate'],
      unknown: ['x'],
    });
  });

  it('expands nothing to nothing', () => {
    expect(expandPermissionPatterns([])).toEqual({ codes: [], unknown: [] });
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
      'agents:approvals:decide',
      'agents:approvals:read',
      'agents:kill',
      'agents:manage',
      'agents:read',
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

  it('carries a 16-hex-digit catalogue_version (also as version) that does not change between calls', () => {
    expect(document.catalogue_version).toMatch(/^[0-9a-f]{16}$/);
    expect(document.version).toBe(document.catalogue_version);
    expect(catalogDocument().catalogue_version).toBe(CATALOGUE_VERSION);
  });

  it('changes its version when any content changes: a risk, a flag, a role, a duty rule', () => {
    const current = { permissions: PERMISSIONS, roles: ROLES, duties: SEPARATION_OF_DUTIES };
    expect(catalogueVersionOf(current)).toBe(CATALOGUE_VERSION);
    const [first, ...rest] = PERMISSIONS;
    const variants = [
      { ...current, permissions: [{ ...first!, risk: first!.risk + 1 }, ...rest] },
      { ...current, permissions: [{ ...first!, read_only: !first!.read_only }, ...rest] },
      { ...current, permissions: rest },
      { ...current, roles: ROLES.slice(1) },
      { ...current, duties: [] },
    ];
    const versions = new Set([CATALOGUE_VERSION, ...variants.map(catalogueVersionOf)]);
    expect(versions.size).toBe(variants.length + 1);
  });

  it('serves each permission with its risk', () => {
    for (const p of document.permissions) expect(p.risk, p.code).toBe(permissionRisk(p.code));
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
