import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';

/** What the approval routes need. */
export interface ApprovalsDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
}
