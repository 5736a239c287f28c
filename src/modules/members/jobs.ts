import { minutes } from '../../kernel/clock.js';
import type { DomainService } from './domains.js';

/**
 * The worker job that closes the domain-join door when a TXT proof disappears (Part A 3, domain claim):
 * every 5 minutes each node re-checks the verified domains not looked up for an hour.
 */
export function domainRecheckJob<D extends { members: { domains: DomainService } }>() {
  return {
    name: 'member-domain-recheck',
    intervalMs: minutes(5),
    async run(deps: D): Promise<void> {
      await deps.members.domains.recheckDue();
    },
  };
}
