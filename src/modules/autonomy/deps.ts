import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { SettingsService } from '../settings/index.js';
import type { SessionService } from '../sign-in/index.js';

/** What the autonomy module is built from (src/app.ts wires it). */
export interface AutonomyDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  settings: SettingsService;
  sessions: SessionService;
  organizations: OrganizationService;
  logger: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}
