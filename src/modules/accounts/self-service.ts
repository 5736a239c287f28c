import type { Population, Principal } from '../../kernel/auth/index.js';
import { PERMISSIONS } from '../../kernel/authz/catalog.js';
import type { Clock } from '../../kernel/clock.js';
import { hashPassword, verifyPassword } from '../../kernel/crypto/index.js';
import type { Transactions } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { badRequest, conflict, forbidden, HttpError, notFound, unprocessable } from '../../kernel/http/index.js';
import { type Limiter, type LimitPolicy, throttled } from '../../kernel/limits/index.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import { liveSessionsOfUser, requireOwnFactorSession, type SessionService, type TokenPair } from '../sign-in/index.js';
import { assertStrongPassword } from './password-policy.js';
import * as store from './store.js';
import * as users from './users-store.js';

/** Wrong current passwords on change-password, per account: a stolen access token must not become an oracle. */
export const CHANGE_PASSWORD_FAILURES: LimitPolicy = {
  name: 'change-password-failures',
  points: 5,
  durationSeconds: 900,
};

export const ACTIVITY_DEFAULT_LIMIT = 50;
export const ACTIVITY_MAX_LIMIT = 100;
export const PROFILE_NAME_MAX = 255;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** C0 and C1 controls and the bidirectional overrides that can disguise a name. */
const CONTROL = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The principal's account and session (self-service routes admit only people). */
function self(principal: Principal) {
  if (!principal.userId || !principal.sessionId || !principal.population) throw new HttpError(401, 'Not authenticated');
  return {
    tenantId: principal.tenantId,
    userId: principal.userId,
    sessionId: principal.sessionId,
    population: principal.population as Population,
    dpopJkt: typeof principal.attributes.dpopJkt === 'string' ? principal.attributes.dpopJkt : undefined,
  };
}

export interface ProfilePatch {
  name?: string | null | undefined;
  given_name?: string | null | undefined;
  family_name?: string | null | undefined;
}

export function createSelfService(deps: {
  transactions: Transactions;
  sessions: SessionService;
  events: Events;
  limiter: Limiter;
  clock: Clock;
  revocation: RevocationCascade;
}) {
  const { transactions, sessions, events, limiter, clock, revocation } = deps;

  const profileOf = (user: NonNullable<Awaited<ReturnType<typeof store.userById>>>) => ({
    email: user.email,
    name: user.name,
    given_name: user.givenName,
    family_name: user.familyName,
    picture: user.picture,
    editable: user.profileSource === 'local',
  });

  return {
    /** Part A 4.1 `GET /me/permissions`: the owner holds every permission of the catalogue. */
    permissions(principal: Principal) {
      const codes = principal.isOwner ? PERMISSIONS.map((p) => p.code) : [...principal.permissions];
      return { is_owner: principal.isOwner, permissions: [...new Set(codes)].sort() };
    },

    /** Part A 4.1 `GET /me/sessions`: live sessions in this organization, the caller's own flagged `current`. */
    async listSessions(principal: Principal) {
      const me = self(principal);
      const rows = await transactions.tenant(me.tenantId, (tx) =>
        liveSessionsOfUser(tx, me.tenantId, me.userId, clock.now()),
      );
      return {
        sessions: rows.map((s) => ({
          session_id: s.id,
          current: s.id === me.sessionId,
          created_at: s.createdAt.toISOString(),
          last_used_at: s.lastUsedAt.toISOString(),
          expires_at: s.expiresAt.toISOString(),
          user_agent: s.userAgent,
          methods: s.amr,
          dpop_bound: s.dpopJkt !== null,
          application: s.clientId === null ? null : { client_id: s.clientId, name: s.clientName ?? s.clientId },
        })),
      };
    },

    /** Part A 4.1 `DELETE /me/sessions/{sid}`: one 404 for unknown, foreign and already-dead sessions. */
    async revokeSession(principal: Principal, sessionId: string): Promise<void> {
      const me = self(principal);
      if (!UUID.test(sessionId)) throw notFound();
      const ended = await transactions.tenant(me.tenantId, async (tx) => {
        if (!(await sessions.revokeOwn(tx, { ...me, sessionId }, 'revoked_by_user'))) return false;
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'session',
          action: 'session.revoked',
          subjectUserId: me.userId,
          data: { user_id: me.userId, session_id: sessionId, current: sessionId === me.sessionId },
        });
        return true;
      });
      if (!ended) throw notFound();
    },

    /** Part A 4.1 `GET /me/activity`: the caller's own events in this organization, newest first. */
    async activity(principal: Principal, limit = ACTIVITY_DEFAULT_LIMIT) {
      const me = self(principal);
      const rows = await transactions.tenant(me.tenantId, (tx) =>
        users.activityOf(tx, me.tenantId, me.userId, Math.min(Math.max(1, limit), ACTIVITY_MAX_LIMIT)),
      );
      return {
        events: rows.map((e) => ({
          id: e.id,
          occurred_at: e.occurredAt.toISOString(),
          action: e.action,
          category: e.category,
          severity: e.severity,
          outcome: e.outcome,
          actor_type: e.actorType,
          data: e.data,
        })),
      };
    },

    async profile(principal: Principal) {
      const me = self(principal);
      const user = await transactions.tenant(me.tenantId, (tx) => store.userById(tx, me.userId));
      if (!user) throw new HttpError(401, 'Not authenticated');
      return profileOf(user);
    },

    /**
     * Part A 4.1 `PATCH /me/profile`: names only (email and picture are not editable); 409 while an identity
     * provider manages the profile; 422 for names too long or carrying control characters.
     */
    async updateProfile(principal: Principal, patch: ProfilePatch) {
      const me = self(principal);
      for (const field of ['name', 'given_name', 'family_name'] as const) {
        const value = patch[field];
        if (typeof value !== 'string') continue;
        if ([...value].length > PROFILE_NAME_MAX) {
          throw unprocessable(`${field}: must be at most ${PROFILE_NAME_MAX} characters`);
        }
        if (CONTROL.test(value)) throw unprocessable(`${field}: must not contain control characters`);
      }
      return transactions.tenant(me.tenantId, async (tx) => {
        const now = clock.now();
        const current = await store.userById(tx, me.userId);
        if (!current) throw new HttpError(401, 'Not authenticated');
        if (current.profileSource !== 'local') {
          throw conflict('Your profile is managed by your identity provider; change it there');
        }
        const changes = {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.given_name !== undefined ? { givenName: patch.given_name } : {}),
          ...(patch.family_name !== undefined ? { familyName: patch.family_name } : {}),
        };
        const updated = await users.updateProfile(tx, me.userId, changes, now);
        if (!updated) throw conflict('Your profile is managed by your identity provider; change it there');
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'auth',
          action: 'user.profile_updated',
          subjectUserId: me.userId,
          data: {
            user_id: me.userId,
            fields: Object.keys(patch).filter((k) => patch[k as keyof ProfilePatch] !== undefined),
          },
        });
        return profileOf(updated);
      });
    },

    /**
     * Part A 4.1 `POST /auth/sign-out-all`: bumps the account's revocation epoch, so every access and refresh
     * token issued before (in every organization) is refused on its next use.
     */
    async signOutAll(principal: Principal): Promise<void> {
      const me = self(principal);
      await transactions.tenant(me.tenantId, async (tx) => {
        const now = clock.now();
        const epoch = await users.bumpEpoch(tx, me.userId, now);
        await revocation.accountSessionsEnded(tx, { userId: me.userId, previousEpoch: epoch - 1, at: now });
        await sessions.revokeAllOfUser(tx, me.tenantId, me.userId, 'signed_out_everywhere');
        const data = { user_id: me.userId, reason: 'sign_out_all' };
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'session',
          action: 'user.sessions_revoked',
          severity: 'warn',
          subjectUserId: me.userId,
          data,
          webhook: { type: 'user.sessions_revoked', data },
        });
      });
    },

    /**
     * Part A 4.1 `POST /auth/change-password`: a fresh pair in a new session, every other token refused
     * (epoch bump). 400 when the new password is weak or the same, or the current one is wrong.
     */
    /**
     * Step-up for changes that add a way to sign in (Part A 4.3 passkeys): the caller's session must have
     * signed in within `withinMs`, and with its second factor when `needsMfa`. 403 naming what to do otherwise.
     */
    async assertRecentSignIn(principal: Principal, rule: { withinMs: number; needsMfa: boolean }): Promise<void> {
      const me = self(principal);
      const session = await transactions.tenant(me.tenantId, (tx) =>
        sessions.authentication(tx, me.tenantId, me.sessionId),
      );
      if (!session) throw new HttpError(401, 'Not authenticated');
      if (clock.now().getTime() - session.authTime.getTime() > rule.withinMs) {
        throw forbidden(`Sign in again first: this needs a sign-in within the last ${rule.withinMs / 60_000} minutes`);
      }
      if (rule.needsMfa && !session.amr.includes('mfa')) {
        throw forbidden('Sign in again with your second factor first: this account has two-step verification on');
      }
    },

    /**
     * Re-proves the signed-in person before a sensitive change (removing a passkey). Answers whether the account
     * has a password at all; when it has one, a missing or wrong `password` is 400, counted on the budget of
     * failed password changes (429 once spent).
     */
    async confirmPassword(principal: Principal, password: string | undefined): Promise<{ hasPassword: boolean }> {
      const me = self(principal);
      const user = await transactions.tenant(me.tenantId, (tx) => store.userById(tx, me.userId));
      if (!user) throw new HttpError(401, 'Not authenticated');
      if (!user.passwordHash) return { hasPassword: false };
      const budget = await limiter.peek(CHANGE_PASSWORD_FAILURES, me.userId);
      if (!budget.allowed) throw throttled(budget);
      if (password === undefined || !(await verifyPassword(user.passwordHash, password))) {
        await limiter.consume(CHANGE_PASSWORD_FAILURES, me.userId);
        throw badRequest('Password is incorrect');
      }
      return { hasPassword: true };
    },

    async changePassword(
      principal: Principal,
      input: { currentPassword: string; newPassword: string },
      context: { userAgent?: string | undefined },
    ): Promise<TokenPair> {
      const me = self(principal);
      // An SSO session is confined to its organization (docs/decisions.md "SSO trust model").
      await requireOwnFactorSession(deps, principal);
      const budget = await limiter.peek(CHANGE_PASSWORD_FAILURES, me.userId);
      if (!budget.allowed) throw throttled(budget);
      assertStrongPassword(input.newPassword);
      const user = await transactions.tenant(me.tenantId, (tx) => store.userById(tx, me.userId));
      if (!user) throw new HttpError(401, 'Not authenticated');
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        await limiter.consume(CHANGE_PASSWORD_FAILURES, me.userId);
        throw badRequest('Current password is incorrect');
      }
      if (input.newPassword === input.currentPassword) {
        throw badRequest('New password must differ from the current password');
      }
      const passwordHash = await hashPassword(input.newPassword);
      await limiter.reset(CHANGE_PASSWORD_FAILURES, me.userId);
      return transactions.tenant(me.tenantId, async (tx) => {
        const now = clock.now();
        const epoch = await users.setPassword(tx, me.userId, passwordHash, now);
        await revocation.accountSessionsEnded(tx, { userId: me.userId, previousEpoch: epoch - 1, at: now });
        await sessions.revokeAllOfUser(tx, me.tenantId, me.userId, 'password_changed');
        await events.emit(tx, {
          tenantId: me.tenantId,
          actor: { id: me.userId, type: 'human' },
          category: 'auth',
          action: 'user.password_changed',
          severity: 'warn',
          subjectUserId: me.userId,
          data: { user_id: me.userId },
        });
        const { tokens } = await sessions.start(tx, {
          tenantId: me.tenantId,
          userId: me.userId,
          population: me.population,
          epoch,
          amr: ['pwd'],
          userAgent: context.userAgent,
          dpopJkt: me.dpopJkt,
        });
        return tokens;
      });
    },
  };
}

export type SelfService = ReturnType<typeof createSelfService>;
