import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import { randomSecret, secretsEqual, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, notFound, unprocessable } from '../../kernel/http/index.js';
import { checkRegistration, type Registration, type RegistrationInput } from './registration.js';
import * as store from './store.js';

/** `cl_` and 128 random bits (22 base64url characters): opaque, unguessable, unique across the installation. */
const CLIENT_ID = /^cl_[A-Za-z0-9_-]{22}$/;
const newClientId = () => `cl_${randomSecret(16)}`;
/** Whether a string has the form of a client id; anything else names no client and is never looked up. */
export const isClientId = (value: string) => CLIENT_ID.test(value);
/** 256 random bits; only its SHA-256 is stored. */
const newClientSecret = () => randomSecret();

const CLIENT_NOT_FOUND = 'OAuth client not found';

/**
 * Client authentication (Part A 4.14): the presented secret against the stored SHA-256, in constant time. A
 * public client (no stored hash) never authenticates with a secret.
 */
export function verifyClientSecret(storedHash: string | null, presented: string): boolean {
  if (storedHash === null) return false;
  return secretsEqual(sha256Hex(presented), storedHash);
}

/** The client record: registration parameters (Part A 2.8) and timestamps; never the secret or its hash. */
export interface ClientView {
  client_id: string;
  name: string;
  client_type: 'confidential' | 'public';
  redirect_uris: string[];
  grant_types: string[];
  scopes: string[];
  post_logout_redirect_uris: string[];
  backchannel_logout_uri: string | null;
  created_at: string;
  updated_at: string;
}

const viewOf = (row: store.ClientRow): ClientView => ({
  client_id: row.clientId,
  name: row.name,
  client_type: row.clientType,
  redirect_uris: row.redirectUris,
  grant_types: row.grantTypes,
  scopes: row.scopes,
  post_logout_redirect_uris: row.postLogoutRedirectUris,
  backchannel_logout_uri: row.backchannelLogoutUri,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const registrationOf = (row: store.ClientRow): Registration => ({
  name: row.name,
  clientType: row.clientType,
  redirectUris: row.redirectUris,
  grantTypes: row.grantTypes,
  scopes: row.scopes,
  postLogoutRedirectUris: row.postLogoutRedirectUris,
  backchannelLogoutUri: row.backchannelLogoutUri,
});

/** The API names of the registration fields, for the `oauth.client_updated` event. */
const FIELD_NAMES: Record<keyof Registration, string> = {
  name: 'name',
  clientType: 'client_type',
  redirectUris: 'redirect_uris',
  grantTypes: 'grant_types',
  scopes: 'scopes',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  backchannelLogoutUri: 'backchannel_logout_uri',
};

/** Unknown and malformed ids, and another organization's clients, are one and the same 404. */
const checkClientId = (clientId: string) => {
  if (!isClientId(clientId)) throw notFound(CLIENT_NOT_FOUND);
};

export function createClientService(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  async function existing(tx: Tx, tenantId: string, clientId: string) {
    checkClientId(clientId);
    const row = await store.client(tx, tenantId, clientId, { forUpdate: true });
    if (!row) throw notFound(CLIENT_NOT_FOUND);
    return row;
  }

  /** Events of this module: organization administration, audited; two are published to webhooks (Part A 6). */
  const emit = (tx: Tx, principal: Principal, action: string, data: Record<string, unknown>, webhook = false) =>
    events.emit(tx, {
      tenantId: principal.tenantId,
      actor: principal.actor,
      category: 'admin',
      action,
      data,
      ...(webhook ? { webhook: { type: action, data } } : {}),
    });

  /** Webhook data of `oauth.client_created` and `oauth.client_deleted`: never the secret. */
  const publicData = (row: store.ClientRow) => ({
    client_id: row.clientId,
    name: row.name,
    client_type: row.clientType,
  });

  return {
    /** `POST /oauth/clients`: a confidential client's secret is answered once; only its hash is kept. */
    async create(principal: Principal, input: RegistrationInput): Promise<ClientView & { client_secret?: string }> {
      const registration = checkRegistration(input);
      const secret = registration.clientType === 'confidential' ? newClientSecret() : null;
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const row: store.ClientRow = {
          tenantId: principal.tenantId,
          clientId: newClientId(),
          ...registration,
          secretHash: secret === null ? null : sha256Hex(secret),
          firstParty: false,
          createdAt: now,
          updatedAt: now,
        };
        await store.insertClient(tx, row);
        await emit(tx, principal, 'oauth.client_created', publicData(row), true);
        return secret === null ? viewOf(row) : { ...viewOf(row), client_secret: secret };
      });
    },

    async list(principal: Principal): Promise<ClientView[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listClients(tx, principal.tenantId)).map(viewOf),
      );
    },

    async get(principal: Principal, clientId: string): Promise<ClientView> {
      checkClientId(clientId);
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await store.client(tx, principal.tenantId, clientId);
        if (!row) throw notFound(CLIENT_NOT_FOUND);
        return viewOf(row);
      });
    },

    /**
     * `PATCH /oauth/clients/{client_id}`: the registration as it would be after the change must hold every
     * rule. The client type is fixed at registration (a confidential client's secret cannot become public).
     */
    async update(principal: Principal, clientId: string, patch: Partial<RegistrationInput>): Promise<ClientView> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await existing(tx, principal.tenantId, clientId);
        if (patch.client_type !== undefined && patch.client_type !== row.clientType) {
          throw unprocessable('client_type: cannot be changed; register a new client instead');
        }
        const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
        const next = checkRegistration({ ...viewOf(row), ...defined });
        const current = registrationOf(row);
        const changed = (Object.keys(FIELD_NAMES) as Array<keyof Registration>).filter(
          (field) => JSON.stringify(next[field]) !== JSON.stringify(current[field]),
        );
        if (changed.length === 0) return viewOf(row);
        const { clientType: _fixed, ...changes } = next;
        const updated = await store.updateClient(tx, principal.tenantId, clientId, {
          ...changes,
          updatedAt: clock.now(),
        });
        await emit(tx, principal, 'oauth.client_updated', {
          client_id: clientId,
          changed: changed.map((field) => FIELD_NAMES[field]),
        });
        return viewOf(updated!);
      });
    },

    /**
     * `DELETE /oauth/clients/{client_id}`: the client is removed at once and its id is never issued again.
     * Grants of the OpenID Provider reference (tenant_id, client_id) and go with it (docs/oidc.md).
     */
    async remove(principal: Principal, clientId: string): Promise<void> {
      checkClientId(clientId);
      await transactions.tenant(principal.tenantId, async (tx) => {
        const gone = await store.deleteClient(tx, principal.tenantId, clientId);
        if (!gone) throw notFound(CLIENT_NOT_FOUND);
        await emit(tx, principal, 'oauth.client_deleted', publicData(gone), true);
      });
    },

    /** A new secret, answered once; the previous one stops authenticating at once (its hash is replaced). */
    async rotateSecret(principal: Principal, clientId: string): Promise<ClientView & { client_secret: string }> {
      return transactions.tenant(principal.tenantId, async (tx) => {
        const row = await existing(tx, principal.tenantId, clientId);
        if (row.clientType !== 'confidential') throw conflict('A public client has no secret to rotate');
        const secret = newClientSecret();
        const updated = await store.updateClient(tx, principal.tenantId, clientId, {
          secretHash: sha256Hex(secret),
          updatedAt: clock.now(),
        });
        await emit(tx, principal, 'oauth.client_secret_rotated', { client_id: clientId });
        return { ...viewOf(updated!), client_secret: secret };
      });
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;
