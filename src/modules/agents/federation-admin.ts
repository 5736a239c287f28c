import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import { canonicalJson } from '../../kernel/events/canonical-json.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { assertOutboundUrl, type Egress } from '../../kernel/net/index.js';
import { discoverJwksUri, type IssuerKeys } from './federation-keys.js';
import {
  CLAIM_SCHEMAS,
  checkBindingClaims,
  type IssuerProfile,
  MAX_BINDINGS_PER_ISSUER,
} from './federation-profiles.js';
import * as store from './federation-store.js';

// Federated issuers and their bindings (ARCHITECTURE.md "Federated issuers", Part B 2.2, 4.1): organization
// administration by people holding `agents:read` / `agents:manage`. Another organization's issuer is 404.

export interface BindingView {
  binding_id: string;
  agent_id: string;
  claims: Record<string, string>;
  created_at: string;
}

export interface IssuerView {
  id: string;
  issuer: string;
  jwks_uri: string;
  profile: IssuerProfile;
  claim_schema: string[];
  enabled: boolean;
  name: string | null;
  created_at: string;
}

const bindingView = (row: store.BindingRow): BindingView => ({
  binding_id: row.id,
  agent_id: row.agentId,
  claims: row.claims,
  created_at: row.createdAt.toISOString(),
});

const issuerView = (row: store.IssuerRow): IssuerView => ({
  id: row.id,
  issuer: row.issuer,
  jwks_uri: row.jwksUri,
  profile: row.profile,
  claim_schema: [...CLAIM_SCHEMAS[row.profile]],
  enabled: row.enabled,
  name: row.name,
  created_at: row.createdAt.toISOString(),
});

/**
 * The issuer as registered is compared with `iss` exactly, so it is kept as written; it must be an https URL
 * on a public name without query or fragment (OpenID Connect Discovery 1.0, section 3), like any outbound URL.
 */
function checkIssuer(issuer: string): string {
  assertOutboundUrl(issuer, 'issuer');
  if (new URL(issuer).search !== '' || issuer.includes('?')) throw unprocessable('issuer: must not carry a query');
  return issuer;
}

const issuerIdOrNotFound = (id: string) => {
  if (!isUuid(id)) throw notFound('Issuer not found');
  return id;
};

export function createFederationAdmin(deps: {
  transactions: Transactions;
  events: Events;
  clock: Clock;
  egress: Egress;
  keys: IssuerKeys;
}) {
  const { transactions, events, clock, egress, keys } = deps;

  async function lockedIssuer(tx: Tx, tenantId: string, id: string) {
    const issuer = await store.issuerForUpdate(tx, tenantId, id);
    if (!issuer) throw notFound('Issuer not found');
    return issuer;
  }

  /** Each change to the organization's federation is an administrative event of the person who made it. */
  async function recordChange(tx: Tx, principal: Principal, action: string, data: Record<string, unknown>) {
    await events.emit(tx, { tenantId: principal.tenantId, actor: principal.actor, category: 'admin', action, data });
  }

  return {
    /**
     * `POST /agents/issuers`: `jwks_uri` defaults to the one the issuer's discovery document names (fetched
     * through the egress client before the transaction). 409 when the organization already trusts that issuer.
     */
    async register(
      principal: Principal,
      input: {
        issuer: string;
        jwks_uri?: string | undefined;
        profile?: IssuerProfile | undefined;
        name?: string | null;
      },
    ): Promise<IssuerView> {
      const issuer = checkIssuer(input.issuer);
      const jwksUri =
        input.jwks_uri !== undefined
          ? assertOutboundUrl(input.jwks_uri, 'jwks_uri')
          : await discoverJwksUri(egress, issuer);
      const row: store.IssuerRow = {
        id: newId(),
        tenantId: principal.tenantId,
        issuer,
        jwksUri,
        profile: input.profile ?? 'generic',
        name: input.name ?? null,
        enabled: true,
        createdAt: clock.now(),
      };
      return transactions.tenant(principal.tenantId, async (tx) => {
        if (!(await store.insertIssuer(tx, row))) throw conflict('issuer: this organization already trusts it');
        await recordChange(tx, principal, 'agent_issuer.registered', {
          issuer_id: row.id,
          issuer,
          jwks_uri: jwksUri,
          profile: row.profile,
        });
        return issuerView(row);
      });
    },

    /** `GET /agents/issuers`: each issuer with its bindings. */
    async list(principal: Principal): Promise<Array<IssuerView & { bindings: BindingView[] }>> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const issuers = await store.issuersOf(tx, principal.tenantId);
        const bindings = await store.bindingsOfTenant(tx, principal.tenantId);
        return issuers.map((issuer) => ({
          ...issuerView(issuer),
          bindings: bindings.filter((binding) => binding.issuerId === issuer.id).map(bindingView),
        }));
      });
    },

    /** `PATCH /agents/issuers/{id}`: `enabled: false` stops every exchange for it; configuration stays. */
    async setEnabled(principal: Principal, id: string, enabled: boolean): Promise<IssuerView> {
      issuerIdOrNotFound(id);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.setIssuerEnabled(tx, principal.tenantId, id, enabled);
        if (!row) throw notFound('Issuer not found');
        await recordChange(tx, principal, 'agent_issuer.updated', { issuer_id: id, issuer: row.issuer, enabled });
        return issuerView(row);
      });
    },

    /** `DELETE /agents/issuers/{id}`: trust ends; its bindings and spent attestation ids go with it. */
    async remove(principal: Principal, id: string): Promise<void> {
      issuerIdOrNotFound(id);
      await transactions.tenant(principal.tenantId, async (tx) => {
        const bindings = await store.bindingsOfIssuer(tx, principal.tenantId, id);
        const row = await store.deleteIssuer(tx, principal.tenantId, id);
        if (!row) throw notFound('Issuer not found');
        await recordChange(tx, principal, 'agent_issuer.removed', {
          issuer_id: id,
          issuer: row.issuer,
          bindings_removed: bindings.map((binding) => binding.id),
        });
      });
      keys.forget(id);
    },

    /**
     * `POST /agents/issuers/{id}/bindings`: exact claims from the profile's schema (`sub` required, no
     * wildcards), a live agent of the organization, at most 25 per issuer, no duplicate claim set (409).
     */
    async addBinding(
      principal: Principal,
      issuerId: string,
      input: { agent_id: string; claims: Record<string, unknown> },
    ): Promise<BindingView> {
      issuerIdOrNotFound(issuerId);
      return transactions.tenant(principal.tenantId, async (tx) => {
        // Locked: concurrent additions to one issuer count its bindings one after the other.
        const issuer = await lockedIssuer(tx, principal.tenantId, issuerId);
        const claims = checkBindingClaims(issuer.profile, input.claims);
        const status = isUuid(input.agent_id)
          ? await store.agentStatus(tx, principal.tenantId, input.agent_id)
          : undefined;
        if (!status || status === 'retired') throw unprocessable('agent_id: not a live agent of this organization');
        if ((await store.countBindings(tx, principal.tenantId, issuerId)) >= MAX_BINDINGS_PER_ISSUER) {
          throw conflict(`This issuer has ${MAX_BINDINGS_PER_ISSUER} bindings, the most it may have`);
        }
        const row: store.BindingRow = {
          id: newId(),
          tenantId: principal.tenantId,
          issuerId,
          agentId: input.agent_id,
          claims,
          claimsKey: canonicalJson(claims),
          createdAt: clock.now(),
        };
        if (!(await store.insertBinding(tx, row))) {
          throw conflict('claims: this issuer already has a binding with exactly this claim set');
        }
        await recordChange(tx, principal, 'agent_issuer.binding_added', {
          issuer_id: issuerId,
          binding_id: row.id,
          agent_id: row.agentId,
          claims,
        });
        return bindingView(row);
      });
    },

    /** `DELETE /agents/issuers/{id}/bindings/{binding_id}`. */
    async removeBinding(principal: Principal, issuerId: string, bindingId: string): Promise<void> {
      issuerIdOrNotFound(issuerId);
      if (!isUuid(bindingId)) throw notFound('Binding not found');
      await transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.deleteBinding(tx, { tenantId: principal.tenantId, issuerId, bindingId });
        if (!row) throw notFound('Binding not found');
        await recordChange(tx, principal, 'agent_issuer.binding_removed', {
          issuer_id: issuerId,
          binding_id: bindingId,
          agent_id: row.agentId,
        });
      });
    },
  };
}

export type FederationAdmin = ReturnType<typeof createFederationAdmin>;
