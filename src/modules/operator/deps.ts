import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { PricingService } from '../pricing/index.js';
import type { SettingsService } from '../settings/index.js';

/** What the operator plane and release downloads need (wired in `buildApp`). */
export interface OperatorDeps {
  config: Config;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  limiter: Limiter;
  settings: SettingsService;
  pricing: PricingService;
  /** The installation's SECRET_KEY: signs the `file://` store's download links (a key derived for that purpose). */
  secretKey: Buffer;
}

/** Every `/operator` route: the permission, held in the platform-operator organization (others 403). */
export const OPERATOR_READ = { auth: 'any', permission: 'operator:read', platformOnly: true } as const;
export const OPERATOR_MANAGE = { auth: 'any', permission: 'operator:manage', platformOnly: true } as const;
