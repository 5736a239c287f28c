import type { Tx } from '../../kernel/db/index.js';
import type { PersonalDataContributor, PersonalDataRegistry } from '../../kernel/personal-data.js';
import { consentView, historyEntry } from './consent.js';
import * as consentStore from './consent-store.js';
import { requestView } from './requests.js';
import * as requestStore from './requests-store.js';
import * as retentionStore from './retention-store.js';

/** Exports are complete: no page limit applies to a person's own data. */
const ALL = 1_000_000;

/** Consent state and its ledger. Erasure removes both: once the person is erased there is nothing to consent. */
export const consentPersonalData: PersonalDataContributor = {
  name: 'consents',
  tables: ['consents', 'consent_events'],
  async export(tx: Tx, tenantId: string, userId: string) {
    const filter = { userId };
    return {
      current: (await consentStore.states(tx, tenantId, filter, ALL)).map(consentView),
      history: (await consentStore.history(tx, tenantId, filter, ALL)).map(historyEntry),
    };
  },
  erase: (tx, tenantId, userId) => consentStore.deleteOfUser(tx, tenantId, userId),
};

/**
 * The person's data-subject requests. Erasure keeps them (evidence that the request was answered, GDPR
 * Art. 5(2) accountability) and scrubs their free-text description.
 */
export const requestPersonalData: PersonalDataContributor = {
  name: 'data_subject_requests',
  tables: ['data_subject_requests'],
  async export(tx: Tx, tenantId: string, userId: string) {
    return (await requestStore.listRequests(tx, tenantId, { userId }, ALL)).map(requestView);
  },
  erase: (tx, tenantId, userId) => requestStore.scrubRequestsOfUser(tx, tenantId, userId),
};

/** Records about the person that a retention policy archived before deleting them. */
export const archivePersonalData: PersonalDataContributor = {
  name: 'archived_records',
  tables: ['retention_archive'],
  async export(tx: Tx, tenantId: string, userId: string) {
    return (await retentionStore.archivedOfUser(tx, tenantId, userId)).map((row) => ({
      data_class: row.dataClass,
      record_id: row.recordId,
      recorded_at: row.recordedAt.toISOString(),
      archived_at: row.archivedAt.toISOString(),
      record: row.record,
    }));
  },
  erase: (tx, tenantId, userId) => retentionStore.deleteArchivedOfUser(tx, tenantId, userId),
};

export function registerPrivacyPersonalData(registry: PersonalDataRegistry): void {
  registry.add(consentPersonalData);
  registry.add(requestPersonalData);
  registry.add(archivePersonalData);
}
