import { and, count, eq, gt } from 'drizzle-orm';
import type { Principal } from '../../kernel/auth/index.js';
import { isSystemRole } from '../../kernel/authz/catalog.js';
import { addMs, days } from '../../kernel/clock.js';
import { hashPassword, randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Tx } from '../../kernel/db/index.js';
import { afterCommit } from '../../kernel/db/index.js';
import { conflict, forbidden, HttpError, notFound } from '../../kernel/http/index.js';
import { isUuid, newId } from '../../kernel/ids.js';
import { throttled } from '../../kernel/limits/index.js';
import { assertStrongPassword } from '../accounts/index.js';
import { findCustomRole } from '../roles/index.js';
import type { TokenPair } from '../sign-in/index.js';
import {
  assertGrantable,
  assertGrantableIn,
  assertSeatAvailable,
  assertSeparationOfDuties,
  emailKeyOf,
  INVITE_REDEMPTION_PER_IP,
  type MembersDeps,
} from './common.js';
import { invitations } from './schema.js';
import * as store from './store.js';

/** Part A 8: an invitation link lives 7 days. */
export const INVITATION_LIFETIME_MS = days(7);

export interface Invite {
  invite_id: string;
  email: string;
  role: string;
  expires_at: string;
  reissued: boolean;
}

export interface InvitePreview {
  organization_name: string;
  tenant_slug: string;
  email: string;
  role: string;
  expires_at: string;
}

const toInvite = (row: store.InvitationRow): Invite => ({
  invite_id: row.id,
  email: row.email,
  role: row.role,
  expires_at: row.expiresAt.toISOString(),
  reissued: row.reissued,
});

/** A concurrent insert won the race (account or membership): answer as the check would have. */
export function rethrowUniqueViolation(error: unknown): never {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  if (code === '23505') throw conflict('Email already registered or already a member');
  throw error;
}

const gone = () => new HttpError(410, 'This invitation has expired; ask for a new one');

export function createInvitationService(deps: MembersDeps) {
  const { transactions, organizations, accounts, sessions, events, limiter, mailer, clock } = deps;

  async function spendBudget(ip: string): Promise<void> {
    const decision = await limiter.consume(INVITE_REDEMPTION_PER_IP, ip);
    if (!decision.allowed) throw throttled(decision);
  }

  /**
   * The pending invitation a link's token names, read without a tenant (the link carries none): 404 for an
   * unknown, revoked, redeemed or superseded token, 410 once expired.
   */
  async function pendingByToken(tx: Tx, token: string): Promise<store.InvitationRow> {
    const found = await store.invitationByTokenHash(tx, sha256Hex(token));
    if (found?.status !== 'pending') throw notFound('Invitation not found');
    if (found.expiresAt <= clock.now()) throw gone();
    return found;
  }

  function sendMail(tx: Tx, invitation: { email: string; role: string }, organizationName: string, token: string) {
    const link = `${deps.baseUrl}/invite?token=${encodeURIComponent(token)}`;
    afterCommit(tx, () =>
      mailer.send({
        to: invitation.email,
        subject: `You are invited to join ${organizationName}`,
        text:
          `You have been invited to join ${organizationName} as ${invitation.role}.\n\n` +
          `Accept the invitation: ${link}\n\nThe link expires in 7 days. If you did not expect it, ignore this mail.\n`,
      }),
    );
  }

  async function redeemInTenant(
    tx: Tx,
    invitation: store.InvitationRow,
    userId: string,
    actor: Principal['actor'],
  ): Promise<void> {
    await transactions.enterTenant(tx, invitation.tenantId);
    // A custom role is held until commit, like an assignment holds it (a delete then counts this member).
    if (!isSystemRole(invitation.role))
      await findCustomRole(tx, invitation.tenantId, invitation.role, { lock: 'share' });
    const redeemed = await store.redeemInvitation(
      tx,
      invitation.tenantId,
      invitation.id,
      invitation.tokenHash,
      clock.now(),
      userId,
    );
    if (!redeemed) throw notFound('Invitation not found');
    const membershipId = await organizations.memberships.add(tx, {
      tenantId: invitation.tenantId,
      userId,
      role: invitation.role,
    });
    await events.emit(tx, {
      tenantId: invitation.tenantId,
      actor,
      category: 'admin',
      action: 'invitation.accepted',
      subjectUserId: userId,
      data: { invite_id: invitation.id, membership_id: membershipId, user_id: userId, role: invitation.role },
    });
  }

  return {
    /**
     * `POST /members/invites`: a new invitation, or the pending one for that address re-issued (new link,
     * expiry restarted, role updated, `reissued: true`). 409 when the address is already a member; 403 at the
     * seat cap (pending invitations count).
     */
    async create(principal: Principal, input: { email: string; role?: string | undefined }): Promise<Invite> {
      const role = input.role ?? 'member';
      const { tenantId, actor } = principal;
      // System roles answer before anything is read; a custom role is checked again, held, in the write below.
      if (isSystemRole(role)) assertGrantable(principal, role);
      const email = input.email.trim();
      const emailKey = emailKeyOf(email);
      const existingUser = await transactions.systemRead((q) => accounts.findUserByEmail(q as Tx, email));
      const token = randomSecret();
      const tokenHash = sha256Hex(token);
      return transactions.tenant(tenantId, async (tx) => {
        await assertGrantableIn(tx, principal, role);
        const now = clock.now();
        const expiresAt = addMs(now, INVITATION_LIFETIME_MS);
        if (existingUser) {
          const membership = await organizations.memberships.ofUser(tx, tenantId, existingUser.id);
          if (membership && membership.status !== 'removed') throw conflict('Already a member of this organization');
        }
        const tenant = await organizations.tenant(tx, tenantId);
        const pending = await store.pendingInvitationForEmail(tx, tenantId, emailKey);
        if (pending) {
          // An expired pending invitation holds no seat; bringing it back takes one.
          if (pending.expiresAt <= now) await assertSeatAvailable(deps, tx, tenantId);
          await store.reissueInvitation(tx, tenantId, pending.id, {
            tokenHash,
            role,
            issuedAt: now,
            expiresAt,
            invitedBy: actor.id,
          });
          await events.emit(tx, {
            tenantId,
            actor,
            category: 'admin',
            action: 'invitation.reissued',
            data: { invite_id: pending.id, role, old_role: pending.role },
          });
          sendMail(tx, { email: pending.email, role }, tenant?.name ?? '', token);
          return toInvite({ ...pending, role, expiresAt, reissued: true });
        }
        await assertSeatAvailable(deps, tx, tenantId);
        const row: store.InvitationRow = {
          tenantId,
          id: newId(),
          email,
          emailKey,
          role,
          tokenHash,
          status: 'pending',
          invitedBy: actor.id,
          createdAt: now,
          issuedAt: now,
          reissued: false,
          expiresAt,
          redeemedAt: null,
          redeemedBy: null,
          revokedAt: null,
        };
        await store.insertInvitation(tx, row);
        await events.emit(tx, {
          tenantId,
          actor,
          category: 'admin',
          action: 'invitation.created',
          data: { invite_id: row.id, role },
        });
        sendMail(tx, row, tenant?.name ?? '', token);
        return toInvite(row);
      });
    },

    /**
     * `GET /members/invites`: pending invitations. An expired one (Part A 3: state `expired`, its link answers
     * 410) is not listed; inviting the address again re-issues it.
     */
    async list(principal: Principal): Promise<Invite[]> {
      return transactions.tenant(principal.tenantId, async (tx) =>
        (await store.listPendingInvitations(tx, principal.tenantId, clock.now())).map(toInvite),
      );
    },

    /** Pending invitations whose link still works that name `role` (a custom role in use is not deleted). */
    async holdingRole(tx: Tx, tenantId: string, role: string, now: Date): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(invitations)
        .where(
          and(
            eq(invitations.tenantId, tenantId),
            eq(invitations.role, role),
            eq(invitations.status, 'pending'),
            gt(invitations.expiresAt, now),
          ),
        );
      return Number(row?.n ?? 0);
    },

    /** `DELETE /members/invites/{invite_id}`: the link dies at once; 404 unless pending in this organization. */
    async revoke(principal: Principal, inviteId: string): Promise<void> {
      const { tenantId } = principal;
      await transactions.tenant(tenantId, async (tx) => {
        const revoked = isUuid(inviteId)
          ? await store.revokeInvitation(tx, tenantId, inviteId, clock.now())
          : undefined;
        if (!revoked) throw notFound();
        await events.emit(tx, {
          tenantId,
          actor: principal.actor,
          category: 'admin',
          action: 'invitation.revoked',
          data: { invite_id: inviteId },
        });
      });
    },

    /** `POST /invites/preview` (anonymous): what the acceptance page shows. */
    async preview(token: string, ip: string): Promise<InvitePreview> {
      await spendBudget(ip);
      return transactions.system(async (tx) => {
        const invitation = await pendingByToken(tx, token);
        const tenant = await organizations.tenant(tx, invitation.tenantId);
        return {
          organization_name: tenant?.name ?? '',
          tenant_slug: tenant?.slug ?? '',
          email: invitation.email,
          role: invitation.role,
          expires_at: invitation.expiresAt.toISOString(),
        };
      });
    },

    /**
     * `POST /invites/accept` (anonymous): a new account for the invited address with the given password, its
     * membership and a session. 400 weak password; 409 when the address already has an account (use
     * accept-existing); the invitation stays usable after any refusal.
     */
    async accept(
      input: { token: string; password: string },
      context: { ip: string; userAgent?: string | undefined },
    ): Promise<TokenPair> {
      await spendBudget(context.ip);
      const invitation = await transactions.system((tx) => pendingByToken(tx, input.token));
      assertStrongPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      return transactions
        .system(async (tx) => {
          const current = await pendingByToken(tx, input.token);
          // The link arrived in this mailbox: accepting it proves the address.
          const userId = await accounts.createAccount(tx, current.email, passwordHash, { emailVerified: true });
          await assertSeparationOfDuties(deps, current.tenantId, userId, current.role, tx);
          const actor = { id: userId, type: 'human' as const };
          await redeemInTenant(tx, current, userId, actor);
          await events.emit(tx, {
            tenantId: invitation.tenantId,
            actor,
            category: 'auth',
            action: 'user.signed_up',
            subjectUserId: userId,
            data: { user_id: userId, population: 'workforce', role: current.role, via: 'invitation' },
            webhook: { type: 'user.signed_up', data: { user_id: userId, population: 'workforce' } },
          });
          const { tokens } = await sessions.start(tx, {
            tenantId: current.tenantId,
            userId,
            population: 'workforce',
            epoch: 0,
            amr: ['pwd'],
            userAgent: context.userAgent,
          });
          return tokens;
        })
        .catch(rethrowUniqueViolation);
    },

    /**
     * `POST /invites/accept-existing` (bearer): the signed-in person joins with the invited role. 403 when the
     * invitation was sent to another address; 409 already a member or a separation-of-duties breach, which
     * leave the invitation usable.
     */
    async acceptExisting(
      principal: Principal,
      token: string,
      ip: string,
    ): Promise<{ tenant_slug: string; role: string }> {
      await spendBudget(ip);
      if (!principal.userId) throw forbidden('Only a person can accept an invitation');
      const userId = principal.userId;
      const invitation = await transactions.system((tx) => pendingByToken(tx, token));
      const invited = await transactions.systemRead((q) => accounts.findUserByEmail(q as Tx, invitation.email));
      if (!invited || invited.id !== userId) {
        throw forbidden('This invitation was sent to a different email address than the signed-in account');
      }
      await assertSeparationOfDuties(deps, invitation.tenantId, userId, invitation.role);
      return transactions
        .system(async (tx) => {
          const current = await pendingByToken(tx, token);
          await redeemInTenant(tx, current, userId, principal.actor);
          const tenant = await organizations.tenant(tx, current.tenantId);
          return { tenant_slug: tenant?.slug ?? '', role: current.role };
        })
        .catch(rethrowUniqueViolation);
    },
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
