import { minutes } from '../../kernel/clock.js';
import type { ElevationRow } from './store.js';

/** An elevation lives about 5 minutes (like an MFA challenge or a passkey ceremony): open, verify, consume. */
export const ELEVATION_TTL_MS = minutes(5);
/** Wrong factors an elevation takes; the one that reaches the cap kills it (Part B 3: "past the cap the ask is dead"). */
export const ELEVATION_ATTEMPTS = 5;
/** ARCHITECTURE.md: the sign-in password is knowledge when the session's sign-in within the last 5 minutes used it. */
export const PASSWORD_KNOWLEDGE_WINDOW_MS = minutes(5);
/** The action every SCA elevation is bound to (ARCHITECTURE.md); a plain step-up may not name it. */
export const SCA_ACTION = 'payment.sca';

export type ElevationStatus = 'opened' | 'satisfied' | 'spent' | 'expired' | 'dead';

/** What an elevation is at `now`: spent once consumed, dead once its attempts are spent, else expired past its time. */
export function elevationStatus(row: ElevationRow, now: Date): ElevationStatus {
  if (row.spentAt) return 'spent';
  if (row.status === 'dead') return 'dead';
  if (row.expiresAt <= now) return 'expired';
  return row.status;
}

/** Factor categories needed: SCA two different ones, a plain step-up one. */
export const categoriesRequired = (row: Pick<ElevationRow, 'kind'>) => (row.kind === 'sca' ? 2 : 1);
