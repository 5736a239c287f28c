import type * as store from './store.js';

/**
 * Why a refresh token was refused (Part A 4.14: the OAuth refresh names the reason). `replayed` also ended the
 * session and raised the detection.
 */
export type RefreshRefusal =
  | 'invalid'
  | 'replayed'
  | 'expired'
  | 'session_ended'
  | 'consent_revoked'
  | 'account_inactive'
  | 'not_a_member'
  | 'password_changed'
  | 'signed_out_everywhere'
  | 'other_key';

/** The reason recorded when a session ended, as the refusal a grant's refresh names. */
const REVOKED_BECAUSE: Record<string, RefreshRefusal> = {
  consent_revoked: 'consent_revoked',
  signed_out_everywhere: 'signed_out_everywhere',
  password_changed: 'password_changed',
  password_reset: 'password_changed',
  member_removed: 'not_a_member',
  scim_deactivated: 'not_a_member',
  scim_deleted: 'not_a_member',
  erased: 'account_inactive',
  refresh_token_replayed: 'replayed',
  authorization_code_replayed: 'replayed',
};

/** Part A 4.14: the reason a grant's refresh token is refused, from the state of its session now. */
export function refusalOf(
  diagnosis: store.RefreshTokenDiagnosis | undefined,
  clientId: string,
  proofJkt: string | undefined,
  now: Date,
): RefreshRefusal {
  if (!diagnosis || diagnosis.clientId !== clientId) return 'invalid';
  if (diagnosis.revokedAt !== null) return REVOKED_BECAUSE[diagnosis.revokedReason ?? ''] ?? 'session_ended';
  if (diagnosis.userStatus !== 'active') return 'account_inactive';
  if (diagnosis.membershipStatus !== 'active') return 'not_a_member';
  if (diagnosis.sessionEpoch !== diagnosis.tokenEpoch) {
    return diagnosis.passwordChangedAt !== null && diagnosis.passwordChangedAt > diagnosis.createdAt
      ? 'password_changed'
      : 'signed_out_everywhere';
  }
  if (diagnosis.expiresAt <= now || diagnosis.sessionExpiresAt <= now) return 'expired';
  if (diagnosis.dpopJkt !== null && diagnosis.dpopJkt !== (proofJkt ?? null)) return 'other_key';
  return 'invalid';
}
