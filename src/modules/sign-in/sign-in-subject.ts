import type { Queryable } from '../../kernel/db/index.js';
import { forbidden } from '../../kernel/http/index.js';
import { signInSubjectRow } from '../accounts/index.js';

export type SignInSubject = NonNullable<Awaited<ReturnType<typeof signInSubjectRow>>>;

/**
 * Who a sign-in is for, in one read (accounts' `signInSubjectRow`: the organization, the account and its
 * membership as they are now). Every sign-in method (password, magic link, passkey, social, SSO) reads it the
 * same way and applies the same rule (`mayUseAccount`, `ssoBlocks`). Undefined when the organization is unknown
 * or the account is no member of it.
 */
export async function signInSubject(q: Queryable, by: Parameters<typeof signInSubjectRow>[1]) {
  return signInSubjectRow(q, by);
}

/** Only an active account with an active membership signs in (Part A 4.1). */
export const mayUseAccount = (subject: SignInSubject | undefined): subject is SignInSubject =>
  subject?.userStatus === 'active' && subject.membershipStatus === 'active';

export const SSO_REQUIRED = 'This organization requires single sign-on';

/**
 * Part A 4.1 and 4.6: once an organization requires SSO, every other sign-in method answers 403 for its
 * members; owners pass (break-glass). Callers check it only after the factor verified, so it reveals nothing
 * to a guesser.
 */
export const ssoBlocks = (subject: SignInSubject): boolean => subject.ssoRequired && subject.role !== 'owner';

export function assertSsoAllows(subject: SignInSubject): void {
  if (ssoBlocks(subject)) throw forbidden(SSO_REQUIRED);
}
