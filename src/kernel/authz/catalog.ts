import { sha256Hex } from '../crypto/secrets.js';

/**
 * The one catalogue of permissions and system roles (Part A 2.2-2.3). A permission is `domain:action`
 * (more segments allowed); read-only permissions never open a state-changing endpoint.
 */
export interface PermissionDefinition {
  code: string;
  read_only: boolean;
  description: string;
}

export const PERMISSIONS: readonly PermissionDefinition[] = [
  {
    code: 'identity:self:write',
    read_only: false,
    description: 'Act on your own record: consent, requests, policy acknowledgement, delegations you granted',
  },
  { code: 'tenant:read', read_only: true, description: 'Read organization configuration' },
  {
    code: 'tenant:manage',
    read_only: false,
    description: 'Manage organization settings, OAuth clients, API keys, webhooks, SSO and SCIM',
  },
  { code: 'members:read', read_only: true, description: 'Read the roster, invitations and domains' },
  { code: 'members:manage', read_only: false, description: 'Invite, change roles, remove members, claim domains' },
  { code: 'agents:read', read_only: true, description: 'Read agents, delegations and issuers' },
  { code: 'agents:manage', read_only: false, description: 'Register, suspend, retire and govern agents' },
  { code: 'approvals:read', read_only: true, description: 'Read approval requests' },
  { code: 'approvals:decide', read_only: false, description: 'Approve or deny parked agent actions' },
  { code: 'manifest:plan', read_only: true, description: 'Plan an IAM manifest' },
  { code: 'manifest:apply', read_only: false, description: 'Apply an IAM manifest' },
  {
    code: 'command:read',
    read_only: true,
    description: 'Read events, audit, detections, findings, incidents, compliance',
  },
  { code: 'command:operate', read_only: false, description: 'Acknowledge detections, open and update incidents' },
  { code: 'compliance:read', read_only: true, description: 'Read privacy requests and retention policies' },
  { code: 'compliance:admin', read_only: false, description: 'Process privacy requests, set retention policies' },
  { code: 'isms:read', read_only: true, description: 'Read ISMS governance records' },
  { code: 'isms:write', read_only: false, description: 'Manage ISMS governance records' },
  { code: 'hipaa:phi:log', read_only: false, description: 'Record access to protected health information' },
  { code: 'autonomy:read', read_only: true, description: 'Read autonomous-response decisions and metrics' },
  { code: 'autonomy:manage', read_only: false, description: 'Configure autonomous-response levels' },
  { code: 'autonomy:approve', read_only: false, description: 'Adjudicate and revert autonomous-response decisions' },
  { code: 'autonomy:disable', read_only: false, description: 'Engage or release the autonomy kill switch' },
  { code: 'payments:stepup', read_only: false, description: 'Request payment step-up elevations' },
  { code: 'mcp:gateway', read_only: false, description: 'Register and call customer MCP servers through the gateway' },
  { code: 'operator:read', read_only: true, description: 'Read the operator plane (platform-operator organization)' },
  {
    code: 'operator:manage',
    read_only: false,
    description: 'Manage the operator plane (platform-operator organization)',
  },
];

export const SYSTEM_ROLES = [
  'owner',
  'admin',
  'security_operator',
  'compliance_officer',
  'auditor',
  'member',
  'customer',
] as const;
export type SystemRole = (typeof SYSTEM_ROLES)[number];

export interface RoleDefinition {
  code: SystemRole;
  name: string;
  description: string;
  permissions: readonly string[];
  /** Assignable by invitation and role change (never `owner`, never `customer`). */
  grantable: boolean;
}

const ALL = PERMISSIONS.map((p) => p.code);
const readOnly = (codes: string[]) => codes.filter((c) => PERMISSIONS.find((p) => p.code === c)?.read_only);

const ADMIN = ALL.filter((c) => !c.startsWith('operator:') && c !== 'compliance:admin' && c !== 'hipaa:phi:log');
const SECURITY_OPERATOR = [
  'tenant:read',
  'members:read',
  'agents:read',
  'agents:manage',
  'approvals:read',
  'approvals:decide',
  'command:read',
  'command:operate',
  'autonomy:read',
  'autonomy:approve',
  'autonomy:disable',
];
const COMPLIANCE_OFFICER = [
  'tenant:read',
  'members:read',
  'command:read',
  'compliance:read',
  'compliance:admin',
  'isms:read',
  'isms:write',
  'hipaa:phi:log',
];
const AUDITOR = readOnly(ALL.filter((c) => !c.startsWith('operator:')));
const BASELINE = ['identity:self:write'];

export const ROLES: readonly RoleDefinition[] = [
  { code: 'owner', name: 'Owner', description: 'Holds every permission', permissions: ALL, grantable: false },
  { code: 'admin', name: 'Administrator', description: 'Runs the organization', permissions: ADMIN, grantable: true },
  {
    code: 'security_operator',
    name: 'Security operator',
    description: 'Works the security command center',
    permissions: SECURITY_OPERATOR,
    grantable: true,
  },
  {
    code: 'compliance_officer',
    name: 'Compliance officer',
    description: 'Privacy, retention and governance',
    permissions: COMPLIANCE_OFFICER,
    grantable: true,
  },
  {
    code: 'auditor',
    name: 'Auditor',
    description: 'Reads everything, changes nothing',
    permissions: AUDITOR,
    grantable: true,
  },
  {
    code: 'member',
    name: 'Member',
    description: 'Baseline of every workforce member',
    permissions: BASELINE,
    grantable: true,
  },
  { code: 'customer', name: 'Customer', description: 'Baseline of end users', permissions: BASELINE, grantable: false },
];

const ROLE_PERMISSIONS = new Map<string, ReadonlySet<string>>(
  ROLES.map((role) => [role.code, new Set([...role.permissions, ...BASELINE])]),
);

export const isSystemRole = (code: string): code is SystemRole => (SYSTEM_ROLES as readonly string[]).includes(code);

/** The permissions a membership holds: its role's, plus the baseline every member holds. */
export function permissionsOfRole(role: string): ReadonlySet<string> {
  return ROLE_PERMISSIONS.get(role) ?? new Set(BASELINE);
}

export const isReadOnlyPermission = (code: string) => PERMISSIONS.find((p) => p.code === code)?.read_only ?? false;

/**
 * Separation-of-duties rules (Part A 4.7: a role change or an invitation acceptance that breaches one is
 * refused naming the rule). A rule names two sides; one person may not hold a role on each side at once.
 * `duties.ts` evaluates them.
 */
export interface DutySide {
  /** Roles on this side when held in the organization itself. */
  organizationRoles?: (role: string) => boolean;
  /** Roles on this side when held in the platform-operator organization. */
  platformRoles?: (role: string) => boolean;
}

export interface SeparationOfDutiesRule {
  id: string;
  description: string;
  sides: readonly [DutySide, DutySide];
}

/** Permissions that change what an organization's auditors review: its configuration, retention, the platform. */
export const AUDIT_SCOPE_CHANGERS = ['tenant:manage', 'compliance:admin', 'members:manage'] as const;
const holdsAny = (role: string, codes: readonly string[]) => {
  const held = permissionsOfRole(role);
  return codes.some((code) => held.has(code));
};

export const SEPARATION_OF_DUTIES: readonly SeparationOfDutiesRule[] = [
  {
    id: 'auditor-independence',
    description:
      'One person cannot hold both auditor and a role that can change what auditors review ' +
      '(tenant:manage, compliance:admin or members:manage in the organization, operator:manage on the platform)',
    sides: [
      { organizationRoles: (role) => role === 'auditor' },
      {
        organizationRoles: (role) => holdsAny(role, AUDIT_SCOPE_CHANGERS),
        platformRoles: (role) => holdsAny(role, ['operator:manage']),
      },
    ],
  },
];

/** Changes whenever the catalogue changes; approvals bind to it (Part B 9.4). */
export const CATALOGUE_VERSION = sha256Hex(
  JSON.stringify({ PERMISSIONS, ROLES, SEPARATION_OF_DUTIES: SEPARATION_OF_DUTIES.map((rule) => rule.description) }),
).slice(0, 16);

export function catalogDocument() {
  return {
    version: CATALOGUE_VERSION,
    permissions: PERMISSIONS.map((p) => ({ ...p })),
    separation_of_duties: SEPARATION_OF_DUTIES.map((rule) => ({ id: rule.id, description: rule.description })),
    roles: ROLES.map((r) => ({
      code: r.code,
      name: r.name,
      description: r.description,
      grantable: r.grantable,
      read_only: r.permissions.every(isReadOnlyPermission),
      permissions: [...permissionsOfRole(r.code)].sort(),
    })),
  };
}
