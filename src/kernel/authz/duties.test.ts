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
