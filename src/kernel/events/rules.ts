import type { DetectionRule } from './events.js';

// Detection rules the kernel runs on every emitted event (events.ts `emit`), for signals that are events already.
// Rules raised at the point of the action itself (a replayed refresh token, the blast-radius breaker, credential
// stuffing from one source when the sign-in's per-address failure throttle engages: src/modules/accounts/
// source-containment.ts) call `events.detect` where they happen instead.

/**
 * Repeated failed sign-ins (Part A 8): the account's failed-attempt throttle engaged (`user.login_throttled`, at
 * most once per account and window). One group per person (`actor:<user id>`), counted again on each later window.
 */
export const REPEATED_SIGN_IN_FAILURES: DetectionRule = {
  id: 'repeated-sign-in-failures',
  match(event) {
    if (event.action !== 'user.login_throttled') return null;
    const userId = event.data.user_id;
    if (typeof userId !== 'string') return null;
    return { groupKey: `actor:${userId}`, severity: 'high', data: { user_id: userId } };
  },
};

/** The rules every `createEvents` runs unless it is given its own. */
export const DETECTION_RULES: readonly DetectionRule[] = [REPEATED_SIGN_IN_FAILURES];
