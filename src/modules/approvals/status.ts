import { permissionRisk } from '../../kernel/authz/catalog.js';

// The rules every kind of ask shares (Part B 3, ARCHITECTURE.md "approvals"): what an ask's status is at an
// instant, and how many people must approve it. Action asks and content asks alike use them.

export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'consumed';

/** An ask expires after 24 hours unless decided (ARCHITECTURE.md, approvals). */
export const APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;
/** A denial is answered again, without a new ask, for repeats of the same action within an hour. */
export const DENIAL_REPEAT_MS = 60 * 60 * 1000;

/**
 * The status of an ask at `now`, by the service clock: a pending or approved ask past its `expires_at` is
 * `expired` (Part B 3: "pending or approved, time passes: expired") whatever the stored status says; decided,
 * spent and expired asks stay what they are. The store's `statusIs` filter is the same rule in SQL.
 */
export function approvalStatus(row: { status: ApprovalStatus; expiresAt: Date }, now: Date): ApprovalStatus {
  if ((row.status === 'pending' || row.status === 'approved') && row.expiresAt.getTime() <= now.getTime()) {
    return 'expired';
  }
  return row.status;
}

/**
 * Actions whose permission scores this much or more (the catalogue's top band: organization-wide administration,
 * kill switches, autonomous response, the operator plane) need two different people to approve them.
 */
export const TWO_PERSON_RISK = 90;

/** How many distinct people must approve an ask for an action needing `permission` (docs/decisions.md). */
export function requiredApprovalsFor(permission: string | null): number {
  return permission !== null && permissionRisk(permission) >= TWO_PERSON_RISK ? 2 : 1;
}
