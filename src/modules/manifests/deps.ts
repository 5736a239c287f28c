import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import type { MembersService } from '../members/index.js';
import type { PlanStep } from './planner.js';

/**
 * Test-only switches (honoured only when `SVC_ENV=test`, ignored otherwise): a hook run before each step of an
 * apply (a test makes a step fail, or holds an apply open to race another), and a stand-in for the permission
 * catalogue's version (a test changes it to see asks invalidated).
 */
export interface ManifestTestHooks {
  beforeStep?: ((step: PlanStep) => void | Promise<void>) | undefined;
  catalogueVersion?: (() => string) | undefined;
}

/** What the manifest routes and services need. */
export interface ManifestsDeps {
  config: Pick<Config, 'env'>;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  /** The members module's invitation service: manifest invites are its invitations, under its rules. */
  members: Pick<MembersService, 'invitations'>;
  testHooks: ManifestTestHooks;
}
