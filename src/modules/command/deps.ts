import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';

/** What every Command Center route needs: it reads the kernel's events, audit chain and detections (no second log). */
export interface CommandDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  /** Whether an organization is the platform operator's (whose callers read across organizations). */
  isPlatformOperator: (tenantId: string) => Promise<boolean>;
}
