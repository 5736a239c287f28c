import type { Config } from '../../config.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { notFound } from '../../kernel/http/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { SessionService } from '../sign-in/index.js';
import type { AssertedPerson, ConnectionChanges, ProvisioningRefusal, SignInCodes } from '../sso/index.js';
import * as store from './store.js';

/**
 * What a SAML sign-in shares with every federated sign-in (the SSO module): the rule that finds or provisions the
 * person (allowed domains, verified domains, seats), written once there.
 */
export type Provision = (
  tx: Tx,
  person: AssertedPerson,
  allowedDomains: readonly string[],
) => Promise<{ userId: string } | { refused: ProvisioningRefusal }>;

export interface SamlDeps {
  config: Pick<Config, 'baseUrl' | 'signInReturnUrl'>;
  transactions: Transactions;
  organizations: Pick<OrganizationService, 'planCode'>;
  /** Ends the sessions an identity provider signs out (single logout). */
  sessions: Pick<SessionService, 'revoke'>;
  events: Events;
  clock: Clock;
  /** Budgets the public start, with the same per-address policy as every SSO start. */
  limiter: Pick<Limiter, 'consume'>;
  provision: Provision;
  /**
   * The one-time codes every SSO round trip ends in (SSO module): the ACS issues one, `POST /auth/sso/complete`
   * redeems it for what password login returns, through the sign-in module's `finishSignIn`.
   */
  signInCodes: Pick<SignInCodes, 'issue'>;
  /** The SSO module's guard and record of connection changes (docs/decisions.md "SSO trust model"). */
  connectionChanges: ConnectionChanges;
  logger: { info(obj: object, msg: string): void };
}

export const NOT_CONFIGURED =
  'SAML is not configured for this organization: PUT /api/v1/tenants/sso/saml configures its identity provider';

/** Part A 4.6: every SAML surface of an organization is dormant (404) while it has no connection. */
export async function configured(tx: Tx, tenantId: string, forUpdate = false) {
  const row = await store.connectionOf(tx, tenantId, forUpdate);
  if (!row) throw notFound(NOT_CONFIGURED);
  return row;
}

// One plan rule and one admin event shape for both protocols of enterprise SSO.
export { assertPlanAllowsSso, emitAdmin } from '../sso/index.js';

/** This service as the organization's SAML service provider: its entity id and endpoints (all under `/api/v1`). */
export interface ServiceProvider {
  entity_id: string;
  acs_url: string;
  slo_url: string;
  metadata_url: string;
}

/**
 * One service provider per organization, named by the organization's id: an identity provider serving several
 * organizations sees several service providers, so an assertion for one is refused by another (audience,
 * recipient). The entity id is the metadata URL, as is customary (SAML 2.0 metadata 4.1).
 */
export function serviceProviderOf(baseUrl: string, tenantId: string): ServiceProvider {
  const base = `${baseUrl}/api/v1/auth/sso/saml/${tenantId}`;
  return {
    entity_id: `${base}/metadata`,
    acs_url: `${base}/acs`,
    slo_url: `${base}/slo`,
    metadata_url: `${base}/metadata`,
  };
}

/** Clock skew accepted on the identity provider's timestamps (NotBefore, NotOnOrAfter, IssueInstant). */
export const CLOCK_SKEW_MS = 60_000;
