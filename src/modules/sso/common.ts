import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../../kernel/auth/index.js';
import { planIncludes, planOf } from '../../kernel/authz/plans.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events, Severity } from '../../kernel/events/index.js';
import { forbidden, notFound, unprocessable } from '../../kernel/http/index.js';
import type { Limiter } from '../../kernel/limits/index.js';
import type { Egress } from '../../kernel/net/index.js';
import type { OrganizationService } from '../organizations/index.js';
import type { SessionService } from '../sign-in/index.js';
import * as store from './store.js';

export interface SsoDeps {
  transactions: Transactions;
  organizations: Pick<OrganizationService, 'planCode' | 'tenant' | 'setSsoRequired' | 'memberships'>;
  /** Ends sessions: the non-SSO ones when SSO becomes required, the SSO ones an identity provider signs out. */
  sessions: Pick<SessionService, 'revoke'>;
  events: Events;
  clock: Clock;
  egress: Egress;
  /** Budgets the connection test: each call makes up to three outbound requests to admin-chosen hosts. */
  limiter: Pick<Limiter, 'consume'>;
  /** The service secret key (SECRET_KEY); the client-secret sealing key is derived from it. */
  secretKey: Buffer;
}

export const NOT_CONFIGURED =
  'SSO is not configured for this organization: PUT /api/v1/tenants/sso/oidc configures its identity provider';

/** Part A 4.6: every SSO surface of an organization is dormant (404) while it has no connection. */
export async function configured(tx: Tx, tenantId: string, forUpdate = false) {
  const row = await store.connectionOf(tx, tenantId, forUpdate);
  if (!row) throw notFound(NOT_CONFIGURED);
  return row;
}

/** Enterprise SSO is a plan feature (docs/decisions.md "Plans"): 403 naming the organization's plan. */
export async function assertPlanAllowsSso(
  deps: { organizations: Pick<OrganizationService, 'planCode'> },
  tx: Tx,
  tenantId: string,
) {
  const plan = await deps.organizations.planCode(tx, tenantId);
  if (!planIncludes(plan, 'enterprise_sso')) {
    throw forbidden(`Enterprise SSO is not included in the ${planOf(plan ?? 'free').name} plan (Enterprise)`);
  }
}

export const emitAdmin = (
  events: Events,
  tx: Tx,
  principal: Principal,
  action: string,
  data: Record<string, unknown>,
  severity?: Severity,
) =>
  events.emit(tx, {
    tenantId: principal.tenantId,
    actor: principal.actor,
    category: 'admin',
    action,
    data,
    ...(severity ? { severity } : {}),
  });

/**
 * Records why a sign-in round trip of a known organization failed, whatever the protocol (Command Center; never
 * shown to the browser).
 */
export async function recordSignInRefusal(
  deps: { transactions: Transactions; events: Events },
  refusal: { tenantId: string; protocol: 'oidc' | 'saml'; reason: string; detail?: string | undefined },
): Promise<void> {
  const { tenantId, protocol, reason, detail } = refusal;
  await deps.transactions.tenant(tenantId, (tx) =>
    deps.events.emit(tx, {
      tenantId,
      actor: { id: 'sso', type: 'system' },
      category: 'auth',
      action: 'sso.sign_in_refused',
      severity: 'low',
      outcome: 'denied',
      data: { protocol, reason, ...(detail ? { detail } : {}) },
    }),
  );
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A connection's `allowed_domains` (OIDC and SAML alike): lowercased, without a final dot, unique, sorted; 422 otherwise. */
export function validDomains(domains: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const raw of domains ?? []) {
    const domain = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN.test(domain)) throw unprocessable(`allowed_domains: "${raw}" is not a domain name`);
    out.add(domain);
  }
  return [...out].sort();
}

/** The `allowed_domains` a connection is configured with (OIDC and SAML alike; `validDomains` reads it). */
export const AllowedDomainsField = Type.Optional(
  Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
    maxItems: 100,
    description:
      'Email domains whose people may sign in through this connection, among the domains the organization ' +
      'verified (it narrows them, never widens them); empty or omitted: every verified domain',
  }),
);

/** The `enabled` a connection is configured with; `whenDisabled` says what a disabled connection of its kind stops. */
export const enabledField = (whenDisabled: string) =>
  Type.Optional(Type.Boolean({ description: `Default true; false keeps the configuration and ${whenDisabled}` }));

/** Who may call the SSO admin routes (the OIDC connection and enforcement here, the SAML connection in its module). */
export const ssoAdminPolicy = { auth: 'any', permission: 'tenant:manage', quarantineGated: true } as const;
export const ssoAdminSchema = { tags: ['sso'], security: [{ bearer: [] }] };
/** `ssoAdminPolicy` in the words of the route descriptions. */
export const SSO_ADMIN_ACCESS =
  'Needs `tenant:manage` (a person or an API key holding it); 403 while the organization awaits approval. ';

/** The answer of a PUT that configures a connection. */
export const CONFIGURED_ANSWER = '201 when this creates the connection, 200 when it replaces it.';
export function sendConfigured(reply: FastifyReply, outcome: { view: unknown; created: boolean }) {
  return reply.code(outcome.created ? 201 : 200).send(outcome.view);
}
