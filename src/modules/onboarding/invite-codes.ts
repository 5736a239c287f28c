import type { Principal } from '../../kernel/auth/index.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import { prefixedSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { conflict, HttpError, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { emailKeyOf } from '../accounts/index.js';
import type { IssueInviteCodeInput } from './http-schemas.js';
import type { InviteCodeRow } from './schema.js';
import * as store from './store.js';

// Onboarding invite codes (ARCHITECTURE.md "Onboarding invite codes"): the platform operator issues one code bound
// to an address and a door; the bootstrap checks it while public sign-up is closed and the hosted confirm step
// consumes it with the organization it creates (Part B 3). Only the SHA-256 of a code is stored.

const CODE_PREFIX = 'inv_';
const PREFIX_LENGTH = 10;
const LIST_LIMIT = 200;

/**
 * The one answer of every invite failure (Part B 4.5: missing, unknown, expired, revoked, used, wrong address,
 * wrong door): the same status, body and headers whatever the cause.
 */
export const INVITE_REFUSED = 'A valid invite code for this address is required while sign-up is closed';
export const inviteRefused = () => new HttpError(403, INVITE_REFUSED);

export const hashInviteCode = (code: string) => sha256Hex(code);

function statusOf(row: InviteCodeRow, now: Date) {
  if (row.revokedAt) return 'revoked' as const;
  if (row.consumedAt) return 'consumed' as const;
  if (row.expiresAt <= now) return 'expired' as const;
  return 'issued' as const;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function inviteCodeView(row: InviteCodeRow, now: Date) {
  return {
    id: row.id,
    code_prefix: row.codePrefix,
    email: row.email,
    door: row.door,
    status: statusOf(row, now),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: iso(row.revokedAt),
    consumed_at: iso(row.consumedAt),
    consumed_organization_id: row.consumedOrganizationId,
  };
}

export function createInviteCodes(deps: { transactions: Transactions; events: Events; clock: Clock }) {
  const { transactions, events, clock } = deps;

  return {
    /** `POST /operator/invite-codes`: the code once. */
    async issue(principal: Principal, input: IssueInviteCodeInput) {
      const code = prefixedSecret(CODE_PREFIX);
      const now = clock.now();
      const row: InviteCodeRow = {
        id: newId(),
        codeHash: hashInviteCode(code),
        codePrefix: code.slice(0, PREFIX_LENGTH),
        email: input.email.trim(),
        emailKey: emailKeyOf(input.email),
        door: input.door,
        createdBy: `${principal.actor.type}:${principal.actor.id}`,
        createdAt: now,
        expiresAt: addMs(now, days(input.expires_in_days ?? 14)),
        revokedAt: null,
        consumedAt: null,
        consumedOrganizationId: null,
      };
      await transactions.tenant(principal.tenantId, async (tx) => {
        await store.insertInviteCode(tx, row);
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'onboarding_invite.issued',
          data: { invite_code_id: row.id, door: row.door, expires_at: row.expiresAt.toISOString() },
        });
      });
      return { id: row.id, code, expires_at: row.expiresAt.toISOString() };
    },

    /** `GET /operator/invite-codes`: newest first, with each code's state as of now. */
    async list(principal: Principal) {
      const rows = await transactions.tenant(principal.tenantId, (tx) => store.listInviteCodes(tx, LIST_LIMIT));
      const now = clock.now();
      return { invite_codes: rows.map((row) => inviteCodeView(row, now)) };
    },

    /** `POST /operator/invite-codes/{id}/revoke`: 404 unknown, 409 once revoked or consumed. */
    async revoke(principal: Principal, id: string) {
      if (!isUuid(id)) throw notFound('Invite code not found');
      return transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        const revoked = await store.revokeInviteCode(tx, id, now);
        if (!revoked) {
          const row = await store.inviteCodeById(tx, id);
          if (!row) throw notFound('Invite code not found');
          throw conflict(`Invite code is already ${statusOf(row, now)}`);
        }
        await events.emit(tx, {
          tenantId: principal.tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'onboarding_invite.revoked',
          data: { invite_code_id: id },
        });
        return inviteCodeView((await store.inviteCodeById(tx, id))!, now);
      });
    },

    /**
     * The live code a bootstrap presents for `email` at `door`, or the one 403. Every cause costs the same work: one
     * indexed read by the code's hash, then the same comparisons. A code already consumed passes only for the
     * organization `rotating` names: the open attempt that consumed it rotates its codes (Part B 3), nothing else.
     */
    async check(
      tx: Tx,
      input: { code: string | undefined; email: string; door: 'onboard' | 'signup'; rotating?: string | null },
    ) {
      const row = await store.inviteCodeByHash(tx, hashInviteCode(input.code ?? ''));
      const status = row ? statusOf(row, clock.now()) : undefined;
      const live =
        row !== undefined &&
        input.code !== undefined &&
        (status === 'issued' ||
          (status === 'consumed' && !!input.rotating && row.consumedOrganizationId === input.rotating)) &&
        row.emailKey === emailKeyOf(input.email) &&
        row.door === input.door;
      if (!live) throw inviteRefused();
      return row;
    },
  };
}

export type InviteCodes = ReturnType<typeof createInviteCodes>;
