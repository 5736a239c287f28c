import { type DutySide, permissionsOfRole, SEPARATION_OF_DUTIES, type SeparationOfDutiesRule } from './catalog.js';

/**
 * Evaluates the separation-of-duties rules of the catalogue (Part A 4.7). What a person holds is read where it
 * can affect the organization: their membership in it and their membership in the platform-operator
 * organization, whose staff run every organization's audit trail (see docs/organizations.md).
 */
export interface Holdings {
  /** Roles held in the organization (after the change being checked). */
  organization: readonly HeldRole[];
  /** Roles held in the platform-operator organization, when the organization is not that one. */
  platform: readonly HeldRole[];
}

/**
 * A role held: a system role by its code, or a custom role (Part A 5.9) with the permissions it grants now. A
 * rule judges every role by what it grants, so a custom role counts like a system role granting the same; a
 * custom role given as a bare code grants only the baseline.
 */
export type HeldRole = string | { code: string; permissions: readonly string[] };

const codeOf = (held: HeldRole) => (typeof held === 'string' ? held : held.code);
const grantsOf = (held: HeldRole) =>
  typeof held === 'string' ? permissionsOfRole(held) : permissionsOfRole(held.code, held.permissions);

const onSide = (side: DutySide, holdings: Holdings) =>
  holdings.organization.some((held) => side.organizationRoles?.(codeOf(held), grantsOf(held)) ?? false) ||
  holdings.platform.some((held) => side.platformRoles?.(codeOf(held), grantsOf(held)) ?? false);

/** The first rule the holdings breach, if any. */
export function separationOfDutiesBreach(holdings: Holdings): SeparationOfDutiesRule | undefined {
  return SEPARATION_OF_DUTIES.find((rule) => onSide(rule.sides[0], holdings) && onSide(rule.sides[1], holdings));
}
