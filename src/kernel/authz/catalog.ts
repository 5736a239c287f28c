import { sha256Hex } from '../crypto/secrets.js';

/**
 * The one catalogue of permissions and system roles (Part A 2.2-2.3, Part B codes as ARCHITECTURE.md spells
 * them). A permission is `domain:action` (more segments allowed); read-only permissions never open a
 * state-changing endpoint.
 *
 * `risk` (0-100) is what an agent's `risk_ceiling` is compared with (Part B 4.2): an action whose permission
 * scores above the ceiling is refused. The scale, so that a ceiling reads as a sentence:
 *   0-30   reads only; nothing changes (a ceiling of 30 lets an agent look at everything and touch nothing)
 *   31-59  changes bounded to one record: your own, a draft, a detection or incident, one elevation
 *   60-79  changes to who may do what in part of the organization: members, agents, integrations, approvals
 *   80-100 organization-wide administration, kill switches, autonomous response; 100 the operator plane,
 *          which reaches every organization
 * Within a band, the more an action can reveal or undo, the higher it scores. An unknown code scores 100.
 */
export interface PermissionDefinition {
  code: string;
  read_only: boolean;
  risk: number;
  description: string;
}

export const PERMISSIONS: readonly PermissionDefinition[] = [
  {
    code: 'identity:self:write',
    read_only: false,
    risk: 35,
    description: 'Act on your own record: consent, requests, policy acknowledgement, delegations you granted',
  },
  { code: 'tenant:read', read_only: true, risk: 10, description: 'Read organization configuration' },
  {
    code: 'tenant:manage',
    read_only: false,
    risk: 90,
    description: 'Manage organization settings, OAuth clients, API keys, webhooks, SSO and SCIM',
  },
  { code: 'members:read', read_only: true, risk: 15, description: 'Read the roster, invitations and domains' },
  {
    code: 'members:manage',
    read_only: false,
    risk: 75,
    description: 'Invite, change roles, remove members, claim domains',
  },
  { code: 'agents:read', read_only: true, risk: 15, description: 'Read agents, delegations and issuers' },
  {
    code: 'agents:manage',
    read_only: false,
    risk: 75,
    description: 'Register, suspend, retire and govern agents; engage their kill switch',
  },
  { code: 'agents:kill', read_only: false, risk: 90, description: "Release an agent's kill switch" },
  { code: 'agents:approvals:read', read_only: true, risk: 15, description: 'Read approval requests' },
  {
    code: 'agents:approvals:decide',
    read_only: false,
    risk: 70,
    description: 'Approve or deny parked agent actions (people only)',
  },
  { code: 'content:read', read_only: true, risk: 10, description: 'Read content approvals and track records' },
  {
    code: 'content:draft:write',
    read_only: false,
    risk: 35,
    description: 'Ask for review of agent-authored content',
  },
  {
    code: 'content:review',
    read_only: false,
    risk: 45,
    description: 'Record that published content had to be pulled',
  },
  { code: 'manifest:plan', read_only: true, risk: 20, description: 'Plan an IAM manifest' },
  { code: 'manifest:apply', read_only: false, risk: 85, description: 'Apply an IAM manifest' },
  { code: 'mcp:servers:read', read_only: true, risk: 10, description: 'Read the MCP gateway servers and tools' },
  {
    code: 'mcp:servers:manage',
    read_only: false,
    risk: 70,
    description: 'Register MCP gateway servers and set their tool allow-lists',
  },
  {
    code: 'command:read',
    read_only: true,
    risk: 25,
    description: 'Read events, audit, detections, findings, incidents, compliance',
  },
  {
    code: 'command:operate',
    read_only: false,
    risk: 50,
    description: 'Acknowledge detections, open and update incidents',
  },
  { code: 'compliance:read', read_only: true, risk: 25, description: 'Read privacy requests and retention policies' },
  {
    code: 'compliance:admin',
    read_only: false,
    risk: 80,
    description: 'Process privacy requests, set retention policies',
  },
  { code: 'isms:read', read_only: true, risk: 15, description: 'Read ISMS governance records' },
  { code: 'isms:write', read_only: false, risk: 40, description: 'Manage ISMS governance records' },
  { code: 'hipaa:phi:log', read_only: false, risk: 40, description: 'Record access to protected health information' },
  {
    code: 'autonomy:read',
    read_only: true,
    risk: 20,
    description: 'Read autonomous-response decisions and metrics',
  },
  { code: 'autonomy:manage', read_only: false, risk: 85, description: 'Configure autonomous-response levels' },
  {
    code: 'autonomy:approve',
    read_only: false,
    risk: 85,
    description: 'Adjudicate and revert autonomous-response decisions',
  },
  {
    code: 'autonomy:disable',
    read_only: false,
    risk: 90,
    description: 'Engage or release the autonomy kill switch',
  },
  {
    code: 'payments:verify',
    read_only: false,
    risk: 60,
    description: 'Consume payment step-up elevations and read risk context',
  },
  {
    code: 'operator:read',
    read_only: true,
    risk: 30,
    description: 'Read the operator plane (platform-operator organization)',
  },
  {
    code: 'operator:manage',
    read_only: false,
    risk: 100,
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
  'agents:kill',
  'agents:approvals:read',
  'agents:approvals:decide',
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

/** What every membership holds whatever its role (Part A 2.3: acting on your own record). */
export const BASELINE_PERMISSIONS: readonly string[] = BASELINE;

/**
 * The permissions a membership holds: its role's, plus the baseline every member holds. A custom role (Part A
 * 5.9) is not in this catalogue: its holder passes the role's current permissions, read with the membership
 * (`custom`); a code that is neither a system role nor a known custom role holds the baseline only.
 */
export function permissionsOfRole(role: string, custom?: readonly string[] | null): ReadonlySet<string> {
  const system = ROLE_PERMISSIONS.get(role);
  if (system) return system;
  return new Set(custom ? [...custom, ...BASELINE] : BASELINE);
}

const BY_CODE = new Map(PERMISSIONS.map((p) => [p.code, p]));

export const isKnownPermission = (code: string) => BY_CODE.has(code);

export const isReadOnlyPermission = (code: string) => BY_CODE.get(code)?.read_only ?? false;

/** The risk of acting under `code`; an unknown code scores the highest, so a ceiling never lets it through. */
export const permissionRisk = (code: string) => BY_CODE.get(code)?.risk ?? 100;

/**
 * Expands permission patterns (Part B 4.1 task scope): an exact code stays; `domain:*` (a trailing `:*`) is every
 * catalogued code under that prefix (`agents:*` includes `agents:approvals:read`). Anything matching nothing,
 * including other wildcard shapes (`*`, `a:*:b`), is `unknown`. Both lists are deduplicated; codes in catalogue
 * order.
 */
export function expandPermissionPatterns(patterns: readonly string[]): { codes: string[]; unknown: string[] } {
  const matched = new Set<string>();
  const unknown = new Set<string>();
  for (const pattern of patterns) {
    const prefix = pattern.endsWith(':*') ? pattern.slice(0, -1) : null;
    const codes =
      prefix && !prefix.includes('*') && prefix.length > 1
        ? PERMISSIONS.filter((p) => p.code.startsWith(prefix)).map((p) => p.code)
        : BY_CODE.has(pattern)
          ? [pattern]
          : [];
    if (codes.length === 0) unknown.add(pattern);
    for (const code of codes) matched.add(code);
  }
  return { codes: PERMISSIONS.map((p) => p.code).filter((code) => matched.has(code)), unknown: [...unknown] };
}

/**
 * Separation-of-duties rules (Part A 4.7: a role change or an invitation acceptance that breaches one is
 * refused naming the rule). A rule names two sides; one person may not hold a role on each side at once.
 * `duties.ts` evaluates them.
 */
export interface DutySide {
  /** Roles on this side when held in the organization itself, by code and by what the role grants. */
  organizationRoles?: (role: string, grants: ReadonlySet<string>) => boolean;
  /** Roles on this side when held in the platform-operator organization, by code and by what the role grants. */
  platformRoles?: (role: string, grants: ReadonlySet<string>) => boolean;
}

export interface SeparationOfDutiesRule {
  id: string;
  description: string;
  sides: readonly [DutySide, DutySide];
}

/** Permissions that change what an organization's auditors review: its configuration, retention, the platform. */
export const AUDIT_SCOPE_CHANGERS = ['tenant:manage', 'compliance:admin', 'members:manage'] as const;
const holdsAny = (grants: ReadonlySet<string>, codes: readonly string[]) => codes.some((code) => grants.has(code));

export const SEPARATION_OF_DUTIES: readonly SeparationOfDutiesRule[] = [
  {
    id: 'auditor-independence',
    description:
      'One person cannot hold both auditor and a role that can change what auditors review ' +
      '(tenant:manage, compliance:admin or members:manage in the organization, operator:manage on the platform)',
    sides: [
      { organizationRoles: (role) => role === 'auditor' },
      {
        organizationRoles: (_role, grants) => holdsAny(grants, AUDIT_SCOPE_CHANGERS),
        platformRoles: (_role, grants) => holdsAny(grants, ['operator:manage']),
      },
    ],
  },
];

/**
 * A hash of everything the catalogue says (codes, read-only flags, risks, descriptions, roles, duty rules), so it
 * changes whenever any of it does; approvals and manifest asks bind to it (Part B 9.4).
 */
export function catalogueVersionOf(catalogue: {
  permissions: readonly PermissionDefinition[];
  roles: readonly RoleDefinition[];
  duties: readonly SeparationOfDutiesRule[];
}): string {
  return sha256Hex(
    JSON.stringify({
      PERMISSIONS: catalogue.permissions,
      ROLES: catalogue.roles,
      SEPARATION_OF_DUTIES: catalogue.duties.map((rule) => rule.description),
    }),
  ).slice(0, 16);
}

export const CATALOGUE_VERSION = catalogueVersionOf({
  permissions: PERMISSIONS,
  roles: ROLES,
  duties: SEPARATION_OF_DUTIES,
});

/** A custom role of the caller's organization as the catalogue lists it (Part A 5.9). */
export interface CustomRoleEntry {
  code: string;
  name: string;
  description: string | null;
  permissions: readonly string[];
}

/**
 * The catalogue. `customRoles` are the caller's organization's own roles, listed after the system roles with
 * `custom: true` (an anonymous caller sees the system roles only); they do not change `catalogue_version`,
 * which describes the installation's catalogue.
 */
export function catalogDocument(customRoles: readonly CustomRoleEntry[] = []) {
  return {
    catalogue_version: CATALOGUE_VERSION,
    /** The same value under its Part A name, kept for clients that read it. */
    version: CATALOGUE_VERSION,
    permissions: PERMISSIONS.map((p) => ({ ...p })),
    separation_of_duties: SEPARATION_OF_DUTIES.map((rule) => ({ id: rule.id, description: rule.description })),
    roles: ROLES.map((r) => ({
      code: r.code as string,
      name: r.name,
      description: r.description,
      grantable: r.grantable,
      read_only: r.permissions.every(isReadOnlyPermission),
      custom: false as boolean,
      permissions: [...permissionsOfRole(r.code)].sort(),
    })).concat(
      customRoles.map((r) => ({
        code: r.code,
        name: r.name,
        description: r.description ?? '',
        grantable: true,
        read_only: r.permissions.every(isReadOnlyPermission),
        custom: true,
        permissions: [...permissionsOfRole(r.code, r.permissions)].sort(),
      })),
    ),
  };
}
