import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { PersonalDataRegistry } from '../../kernel/personal-data.js';
import { createConsentService } from './consent.js';
import { registerPrivacyPersonalData } from './personal-data.js';
import { createRequestService } from './requests.js';
import { createRetentionService } from './retention.js';

/**
 * Privacy rights (Part A 4.10, 2.15): data-subject requests, the consent ledger and retention. Registers
 * this module's own personal-data contributors (consents, requests, archived records).
 */
export function createPrivacyService(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  personalData: PersonalDataRegistry;
  sessions: { revokeAllOfUser(tx: Tx, tenantId: string, userId: string, reason: string): Promise<number> };
}) {
  registerPrivacyPersonalData(deps.personalData);
  return {
    requests: createRequestService(deps),
    consent: createConsentService(deps),
    retention: createRetentionService(deps),
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
