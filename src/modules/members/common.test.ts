import { describe, expect, it } from 'vitest';
import type { Principal } from '../../kernel/auth/index.js';
import { permissionsOfRole } from '../../kernel/authz/catalog.js';
import { HttpError } from '../../kernel/http/index.js';
import { assertGrantable, emailKeyOf } from './common.js';

const principal = (permissions: Iterable<string>, isOwner = false): Principal => ({
  kind: 'user',
  tenantId: '00000000-0000-7000-8000-000000000001',
  permissions: new Set(permissions),
  isOwner,
  population: 'workforce',
  quarantined: false,
  actor: { id: 'u', type: 'human' },
  attributes: {},
});

function outcome(granter: Principal, role: string) {
  try {
    assertGrantable(granter, role);
    return 'granted';
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('which roles a principal may grant', () => {
  const owner = principal([], true);

  it('refuses unknown roles with 422, whoever asks', () => {
    expect(outcome(owner, 'superuser')).toBe('422 role: unknown role "superuser"');
    expect(outcome(owner, 'Admin')).toBe('422 role: unknown role "Admin"');
    expect(outcome(owner, '')).toBe('422 role: unknown role ""');
  });

  it('never grants owner or customer (422), even for the owner', () => {
    expect(outcome(owner, 'owner')).toBe('422 role: owner cannot be granted (never owner or customer)');
    expect(outcome(owner, 'customer')).toBe('422 role: customer cannot be granted (never owner or customer)');
  });

  it('lets the owner grant every grantable role', () => {
    for (const role of ['admin', 'security_operator', 'compliance_officer', 'auditor', 'member']) {
      expect(outcome(owner, role), role).toBe('granted');
    }
  });

  it('lets an admin grant what they hold, and refuses the compliance officer naming what they lack (403)', () => {
    const admin = principal(permissionsOfRole('admin'));
    expect(outcome(admin, 'admin')).toBe('granted');
    expect(outcome(admin, 'security_operator')).toBe('granted');
    expect(outcome(admin, 'auditor')).toBe('granted');
    expect(outcome(admin, 'compliance_officer')).toBe(
      '403 Role compliance_officer holds permissions you do not hold: compliance:admin, hipaa:phi:log',
    );
  });

  it('lets anyone grant member: its own-record permission gives no power over others', () => {
    expect(outcome(principal([]), 'member')).toBe('granted');
    expect(outcome(principal(['members:manage']), 'auditor')).toMatch(
      /^403 Role auditor holds permissions you do not hold: /,
    );
  });
});

describe('emailKeyOf', () => {
  it('compares addresses trimmed and case-insensitively', () => {
    expect(emailKeyOf('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });
});
