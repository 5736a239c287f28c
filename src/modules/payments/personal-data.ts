import type { Clock } from '../../kernel/clock.js';
import type { PersonalDataContributor } from '../../kernel/personal-data.js';
import { elevationStatus } from './status.js';
import * as store from './store.js';

/**
 * A person's payment step-up elevations (Part A 4.10): exported with what each was bound to (the operation, its
 * context, the sentence shown) and the address it was opened from; erased whole. The payment back end keeps the
 * attestations it received, and the audit chain keeps the events (which never held the context).
 */
export const paymentsPersonalData = (clock: Clock): PersonalDataContributor => ({
  name: 'payment_elevations',
  tables: ['payment_elevations'],
  async export(tx, tenantId, userId) {
    const now = clock.now();
    return (await store.elevationsOfUser(tx, tenantId, userId)).map((row) => ({
      elevation_id: row.id,
      kind: row.kind,
      status: elevationStatus(row, now),
      action: row.action,
      context: row.context,
      display: row.display,
      categories_proven: row.categories,
      source_ip: row.sourceIp,
      created_at: row.createdAt.toISOString(),
      verified_at: row.satisfiedAt?.toISOString() ?? null,
      consumed_at: row.spentAt?.toISOString() ?? null,
    }));
  },
  async erase(tx, tenantId, userId) {
    await store.deleteElevationsOfUser(tx, tenantId, userId);
  },
});
