import type { Clock } from '../../kernel/clock.js';
import { days } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter, LimitPolicy } from '../../kernel/limits/index.js';
import { operatorSettingValue } from '../operator-settings/index.js';
import { type CredentialHolder, MAX_CREDENTIAL_AGE_SETTING } from './state-store.js';

export const STALE_CREDENTIAL_RULE = 'agent-credential-stale';

/**
 * The detection is raised once per credential: the first stale mint takes this one-point budget, so later mints
 * with the same credential write nothing (with Redis, across nodes; without, once per node, and the detection's
 * deduplication counts the repeats in one group). The budget lasts 14 days (a memory store cannot keep a key
 * longer than a timer runs, about 24 days): a credential still in use then is counted again in its group, or
 * reopens it once resolved, as a reminder.
 */
const STALE_RAISED: LimitPolicy = { name: 'agent-credential-stale-raised', points: 1, durationSeconds: 14 * 86_400 };

/**
 * Part B 4.2: with `security.agent_max_credential_age_days` above 0, minting with an older credential raises
 * `agent-credential-stale`, grouped by credential. It never blocks: the mint goes on whatever happens here
 * (a malformed setting or a failed write is logged, not answered).
 */
export function createStaleCredentialCheck(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  logger: { warn(obj: object, msg: string): void };
}) {
  const { transactions, events, clock, limiter } = deps;
  return async function noteIfStale(holder: CredentialHolder): Promise<void> {
    try {
      const maxAgeDays = operatorSettingValue(MAX_CREDENTIAL_AGE_SETTING, holder.maxCredentialAgeDays);
      if (maxAgeDays === 0) return;
      const ageMs = clock.now().getTime() - holder.credentialIssuedAt.getTime();
      if (ageMs <= days(maxAgeDays)) return;
      if (!(await limiter.consume(STALE_RAISED, holder.credentialHash)).allowed) return;
      // Group key by credential (a rotated credential starts its own group); never the hash itself.
      const credentialId = holder.credentialIssuedAt.toISOString();
      await transactions.tenant(holder.tenantId, (tx) =>
        events.detect(tx, {
          tenantId: holder.tenantId,
          ruleId: STALE_CREDENTIAL_RULE,
          groupKey: `agent:${holder.agentId}:credential:${credentialId}`,
          severity: 'warn',
          data: {
            agent_id: holder.agentId,
            credential_issued_at: credentialId,
            age_days: Math.floor(ageMs / days(1)),
            max_age_days: maxAgeDays,
          },
        }),
      );
    } catch (error) {
      deps.logger.warn({ err: (error as Error).message, agent_id: holder.agentId }, 'stale credential not recorded');
    }
  };
}
