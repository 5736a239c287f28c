import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Principal } from '../../kernel/auth/index.js';
import type { Clock } from '../../kernel/clock.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, HttpError, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import type { AccountService, SecurityNotices } from '../accounts/index.js';
import { requireOwnFactorSession } from '../sign-in/index.js';
import { CEREMONY_TTL_MS, challengeOf, passkeyName, type RelyingParty, userHandleOf } from './relying-party.js';
import * as store from './store.js';

/**
 * COSE algorithms of the keys a passkey may have: EdDSA, ES256, RS256 (WebAuthn Level 3, 5.8.3), whatever Node the
 * node runs. Left to its default, SimpleWebAuthn also offers ML-DSA-44 first (and accepts it) when the runtime's Web
 * Crypto knows it, as Node 24's does (experimentally) and Node 20's does not: such a passkey could not be checked by
 * a node still on Node 20, nor after going back to it (docs/passkeys.md).
 */
const PASSKEY_ALGORITHMS = [-8, -7, -257];

/** One answer for every registration the service cannot accept (Part A 4.3: invalid, expired or replayed). */
export const INVALID_CEREMONY = 'Invalid, expired or replayed passkey registration';

/** Part A 2.16 (fields not shown in the spec): what the service tells about a passkey. Never its public key. */
export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  device_type: string;
  backed_up: boolean;
  transports: string[];
}

export const summaryOf = (row: store.CredentialRow): PasskeySummary => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  device_type: row.deviceType,
  backed_up: row.backedUp,
  transports: row.transports,
});

/** A person signed in with a session: passkeys belong to accounts, never to API keys or agents. */
function person(principal: Principal) {
  if (!principal.userId) throw new HttpError(401, 'Not authenticated');
  return { tenantId: principal.tenantId, userId: principal.userId };
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || (error as { cause?: { code?: string } })?.cause?.code === '23505';

/**
 * Part A 4.3, the account's side: registering, listing and removing passkeys. The WebAuthn tables are global
 * (an account, and so its passkeys, spans organizations), so they are read and written in system transactions;
 * the events go to the organization of the session that made the change.
 */
/** Adding a passkey needs a session that signed in at most this long ago. */
export const REGISTRATION_SIGN_IN_WINDOW_MS = 10 * 60_000;

export function createPasskeyRegistration(deps: {
  rp: RelyingParty;
  transactions: Transactions;
  events: Events;
  clock: Clock;
  accounts: AccountService;
  mfaEnabled: (userId: string) => Promise<boolean>;
  notify: SecurityNotices;
}) {
  const { rp, transactions, events, clock, accounts, notify } = deps;

  return {
    /**
     * `POST /webauthn/credentials/options`: creation options for a discoverable credential (resident key
     * required, user verification preferred), excluding the account's passkeys so one authenticator is not
     * registered twice. The challenge is stored bound to the account, single use, about 5 minutes.
     */
    async registrationOptions(principal: Principal): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const me = person(principal);
      // An SSO session is confined to its organization (docs/decisions.md "SSO trust model").
      await requireOwnFactorSession(deps, principal);
      // A passkey with user verification counts as two factors and outlives password changes: adding one needs
      // a recent sign-in, with the second factor when TOTP is on, not just any live (or stolen) access token.
      await accounts.assertRecentSignIn(principal, {
        withinMs: REGISTRATION_SIGN_IN_WINDOW_MS,
        needsMfa: await deps.mfaEnabled(me.userId),
      });
      const [account, existing] = await transactions.systemRead(async (q) =>
        Promise.all([store.accountOf(q, me.userId), store.credentialsOf(q, me.userId)]),
      );
      if (account?.status !== 'active') throw new HttpError(401, 'Not authenticated');
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: account.email,
        userDisplayName: account.name ?? account.email,
        userID: userHandleOf(me.userId),
        timeout: CEREMONY_TTL_MS,
        attestationType: 'none',
        excludeCredentials: existing.map((c) => ({ id: c.credentialId, transports: c.transports })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      });
      const now = clock.now();
      await transactions.system((tx) =>
        store.issueChallenge(tx, { challenge: options.challenge, purpose: 'registration', userId: me.userId, now }),
      );
      return options;
    },

    /**
     * `POST /webauthn/credentials`: verifies the browser's attestation against a challenge issued to this
     * account and stores the passkey. The challenge is spent first, in its own statement, so a response that
     * fails verification cannot be tried again: every failure is one 400.
     */
    async register(
      principal: Principal,
      input: { response: RegistrationResponseJSON; name?: string | undefined },
    ): Promise<PasskeySummary> {
      const me = person(principal);
      await requireOwnFactorSession(deps, principal);
      const name = passkeyName(input.name);
      const challenge = challengeOf(input.response.response.clientDataJSON);
      const now = clock.now();
      const spent =
        challenge &&
        (await transactions.systemWrite((q) =>
          store.spendChallenge(q, { challenge, purpose: 'registration', userId: me.userId, now }),
        ));
      if (!challenge || !spent) throw badRequest(INVALID_CEREMONY);
      let info: NonNullable<Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']>;
      try {
        const result = await verifyRegistrationResponse({
          response: input.response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          // Verification was asked as "preferred": an authenticator without it may still register.
          requireUserVerification: false,
          supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
        });
        if (!result.verified) throw badRequest(INVALID_CEREMONY);
        info = result.registrationInfo;
      } catch {
        throw badRequest(INVALID_CEREMONY);
      }
      const row = {
        id: newId(),
        userId: me.userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: (info.credential.transports ?? input.response.response.transports ?? []).slice(0, 10),
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        name,
        createdAt: now,
        lastUsedAt: null,
      };
      try {
        await transactions.system(async (tx) => {
          await store.insertCredential(tx, row);
          await transactions.enterTenant(tx, me.tenantId);
          await events.emit(tx, {
            tenantId: me.tenantId,
            actor: { id: me.userId, type: 'human' },
            category: 'auth',
            action: 'passkey.registered',
            subjectUserId: me.userId,
            data: { user_id: me.userId, credential_id: row.id, device_type: row.deviceType, backed_up: row.backedUp },
          });
          await notify(
            tx,
            me.userId,
            'A passkey was added',
            `A passkey named "${row.name}" was added to your account.`,
          );
        });
      } catch (error) {
        // The same authenticator credential again (the browser normally prevents it with excludeCredentials).
        if (isUniqueViolation(error)) throw badRequest('This passkey is already registered');
        throw error;
      }
      return summaryOf(row);
    },

    /** `GET /webauthn/credentials`: the account's passkeys, oldest first. */
    async listPasskeys(principal: Principal): Promise<PasskeySummary[]> {
      const me = person(principal);
      const rows = await transactions.systemRead((q) => store.credentialsOf(q, me.userId));
      return rows.map(summaryOf);
    },

    /**
     * `POST /webauthn/credentials/{id}/remove`: re-proves the person with their password when the account has
     * one (400 wrong or missing), then removes the passkey. One 404 for an unknown id and another account's
     * passkey. A passwordless account keeps its last passkey (400), or it could never sign in again.
     */
    async removePasskey(principal: Principal, id: string, password: string | undefined): Promise<void> {
      const me = person(principal);
      await requireOwnFactorSession(deps, principal);
      const { hasPassword } = await accounts.confirmPassword(principal, password);
      if (!isUuid(id)) throw notFound();
      await transactions.system(async (tx) => {
        const mine = await store.lockCredentialsOf(tx, me.userId);
        if (!mine.some((c) => c.id === id)) throw notFound();
        if (!hasPassword && mine.length === 1) {
          throw badRequest('This is the last passkey of an account without a password: it cannot be removed');
        }
        await store.deleteCredential(tx, id, me.userId);
        await transactions.enterTenant(tx, me.tenantId);
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'auth',
          action: 'passkey.removed',
          subjectUserId: me.userId,
          data: { user_id: me.userId, credential_id: id },
        });
        const removed = mine.find((c) => c.id === id)!;
        await notify(tx, me.userId, 'A passkey was removed', `The passkey named "${removed.name}" was removed.`);
      });
    },
  };
}
