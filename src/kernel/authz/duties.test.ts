import { describe, expect, it } from 'vitest';
import { SYSTEM_ROLES } from './catalog.js';
import { separationOfDutiesBreach } from './duties.js';

describe('separation of duties: auditor-independence', () => {
  it('refuses auditor together with a role that can change what auditors review', () => {
    for (const changer of ['owner', 'admin', 'compliance_officer']) {
      expect(separationOfDutiesBreach({ organization: ['auditor', changer], platform: [] })?.id, changer).toBe(
        'auditor-independence',
      );
    }
    expect(separationOfDutiesBreach({ organization: ['auditor'], platform: ['owner'] })?.id).toBe(
      'auditor-independence',
    );
  });

  it('allows auditor with roles that cannot, and any role alone', () => {
    for (const other of ['security_operator', 'member', 'customer']) {
      expect(separationOfDutiesBreach({ organization: ['auditor', other], platform: [] })).toBeUndefined();
    }
    // A platform admin does not hold operator:manage; a platform auditor changes nothing.
    expect(separationOfDutiesBreach({ organization: ['auditor'], platform: ['admin'] })).toBeUndefined();
    for (const role of SYSTEM_ROLES) {
      expect(separationOfDutiesBreach({ organization: [role], platform: [] }), role).toBeUndefined();
    }
  });
});

describe('separation of duties: custom roles count by what they grant', () => {
  it('puts a custom role granting an audit-scope changer on the second side, in the organization or the platform', () => {
    for (const code of ['tenant:manage', 'compliance:admin', 'members:manage']) {
      const custom = { code: 'desk', permissions: ['members:read', code] };
      expect(separationOfDutiesBreach({ organization: ['auditor', custom], platform: [] })?.id, code).toBe(
        'auditor-independence',
      );
    }
    const operatorDesk = { code: 'ops-desk', permissions: ['operator:manage'] };
    expect(separationOfDutiesBreach({ organization: ['auditor'], platform: [operatorDesk] })?.id).toBe(
      'auditor-independence',
    );
  });

  it('leaves a custom role granting none of them, a bare custom code, and an auditor-like custom role alone', () => {
    const reader = { code: 'reader', permissions: ['members:read', 'agents:read', 'command:read'] };
    expect(separationOfDutiesBreach({ organization: ['auditor', reader], platform: [reader] })).toBeUndefined();
    // Known by its code only, a custom role grants the baseline: nothing on either side.
    expect(separationOfDutiesBreach({ organization: ['auditor', 'desk'], platform: ['ops-desk'] })).toBeUndefined();
    // The first side is the auditor role itself: a custom role never stands for it.
    const manager = { code: 'manager', permissions: ['tenant:manage'] };
    expect(separationOfDutiesBreach({ organization: [reader, manager], platform: [] })).toBeUndefined();
    // operator:manage counts on the platform side only, as for system roles.
    const operatorDesk = { code: 'ops-desk', permissions: ['operator:manage'] };
    expect(separationOfDutiesBreach({ organization: ['auditor', operatorDesk], platform: [] })).toBeUndefined();
  });
});
