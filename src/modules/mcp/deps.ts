import type { Config } from '../../config.js';
import type { CredentialResolver, Governance } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { ManifestService } from '../manifests/index.js';
import type { PricingService } from '../pricing/index.js';

/** What the MCP module needs: the services its tools call in-process, and the kernel's guard parts. */
export interface McpDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  egress: Egress;
  /** The app's credential resolvers: the MCP endpoint resolves its caller itself (one governance run per call). */
  resolvers: readonly CredentialResolver[];
  /** Agent governance, the same ordered checks the route guard runs (ARCHITECTURE.md "One guard for agents"). */
  governance: Governance;
  manifests: ManifestService;
  pricing: PricingService;
  isPlatformOperator: (tenantId: string) => Promise<boolean>;
}
