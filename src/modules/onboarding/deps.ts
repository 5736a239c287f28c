import type { Config } from '../../config.js';
import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import type { Dns } from '../../kernel/net/index.js';
import type { AccountService } from '../accounts/index.js';
import type { AgentAdmin } from '../agents/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import type { SessionService } from '../sign-in/index.js';

/** What onboarding needs, wired by hand in src/app.ts. */
export interface OnboardingDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  mailer: Mailer;
  dns: Dns;
  accounts: AccountService;
  organizations: OrganizationService;
  agentAdmin: AgentAdmin;
  passkeys: PasskeyService;
  sessions: SessionService;
}

/**
 * The new organization's owner as a principal, for the in-process calls made on their behalf once they approved
 * (registering the agent, delegating to it, releasing its credential): the events name the owner as the actor.
 */
export const ownerPrincipal = (tenantId: string, userId: string): Principal => ({
  kind: 'user',
  tenantId,
  userId,
  role: 'owner',
  permissions: new Set(),
  isOwner: true,
  population: 'workforce',
  quarantined: false,
  actor: { id: userId, type: 'human' },
  attributes: {},
});
