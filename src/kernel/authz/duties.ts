import { type DutySide, SEPARATION_OF_DUTIES, type SeparationOfDutiesRule } from './catalog.js';

/**
 * Evaluates the separation-of-duties rules of the catalogue (Part A 4.7). What a person holds is read where it
 * can affect the organization: their membership in it and their membership in the platform-operator
 * organization, whose staff run every organization's audit trail (see docs/organizations.md).
 */
export interface Holdings {
  /** Roles held in the organization (after the change being checked). */
  organization: readonly string[];
  /** Roles held in the platform-operator organization, when the organization is not that one. */
  platform: readonly string[];
}

const onSide = (side: DutySide, holdings: Holdings) =>
  holdings.organization.some((role) => side.organizationRoles?.(role) ?? false) ||
  holdings.platform.some((role) => side.platformRoles?.(role) ?? false);

/** The first rule the holdings breach, if any. */
export function separationOfDutiesBreach(holdings: Holdings): SeparationOfDutiesRule | undefined {
  return SEPARATION_OF_DUTIES.find((rule) => onSide(rule.sides[0], holdings) && onSide(rule.sides[1], holdings));
}
