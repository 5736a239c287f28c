import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Queryable, Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';

/** What every Command Center route needs: it reads the kernel's events, audit chain and detections (no second log). */
export interface CommandDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  /** The platform-operator organization (reads across organizations), if one exists. */
  platformOperator: (q: Queryable) => Promise<{ id: string } | undefined>;
}
