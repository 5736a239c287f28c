import { sql } from 'drizzle-orm';
import type { AccessTokens, Population } from '../../kernel/auth/index.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import { type Queryable, rows, type Transactions, type Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Metrics } from '../../kernel/observability/index.js';
import type { RevocationCascade } from '../../kernel/revocation.js';
import { type RefreshRefusal, refusalOf } from './refresh-refusal.js';
import * as store from './store.js';

export type { RefreshRefusal } from './refresh-refusal.js';

/** Part A 2.1. `refresh_token` is null in cookie mode (the token then travels only as a cookie). */
export interface TokenPair {
  access_token: string;
  refresh_token: string | null;
  token_type: 'bearer' | 'DPoP';
  expires_in: number;
  /** Seconds the refresh token lives (the cookie's Max-Age); not part of the response body. */
  refresh_expires_in?: number;
}

/** Part A 5.2: refresh tokens live 7 days for the workforce, 30 days for customers. */
export const REFRESH_LIFETIME: Record<Population, number> = { workforce: days(7), customer: days(30) };

export interface NewSession {
  tenantId: string;
  userId: string;
  population: Population;
  epoch: number;
  amr: string[];
  userAgent?: string | undefined;
  dpopJkt?: string | undefined;
}

/**
 * An OAuth grant of the OpenID Provider (Part A 4.14): a session of its own for one client, made from the
 * browser's session at the provider, so every revocation of Part A 3 reaches the client's tokens.
 */
export interface NewGrantSession extends NewSession {
  clientId: string;
  scope: string;
  resource: string | null;
  /** The browser session that signed in: the ID token's `sid`; its end ends the grant (revocation.ts). */
  parentSessionId: string;
  /** When the person authenticated (the browser session's sign-in, OIDC `auth_time`). */
  authTime: Date;
  /** Whether the grant gets a refresh token (the client has the refresh_token grant). */
  refreshable: boolean;
}

/** A live session and how it signed in. */
export interface LiveSession {
  tenantId: string;
  sessionId: string;
  userId: string;
  epoch: number;
  population: Population;
  authTime: Date;
  amr: string[];
  dpopJkt: string | null;
}

/** A refresh token spent for its successor, with the session it belongs to. */
export interface RotatedRefresh {
  tenantId: string;
  userId: string;
  sessionId: string;
  epoch: number;
  dpopJkt: string | null;
  refreshToken: string;
  refreshExpiresAt: Date;
}

export interface IssuedSession {
  sessionId: string;
  tokens: TokenPair;
}

/** A session is live while not revoked, not expired, and its account, epoch and membership still hold. */
export function sessionIsLive(
  state: Pick<
    store.SessionState,
    'revokedAt' | 'expiresAt' | 'userStatus' | 'membershipStatus' | 'sessionEpoch' | 'tokenEpoch'
  >,
  now: Date,
): boolean {
  return (
    state.revokedAt === null &&
    state.expiresAt > now &&
    state.userStatus === 'active' &&
    state.membershipStatus === 'active' &&
    state.sessionEpoch === state.tokenEpoch
  );
}

export function createSessionService(deps: {
  transactions: Transactions;
  accessTokens: AccessTokens;
  events: Events;
  clock: Clock;
  /** Told of every session this service ends, in the same transaction (src/kernel/revocation.ts). */
  revocation: RevocationCascade;
  metrics?: Pick<Metrics, 'tokenIssued'>;
}) {
  const { transactions, accessTokens, events, clock, revocation } = deps;

  /** Every write that ends sessions goes through here, so the cascade hears of each one. */
  async function ended(tx: Tx, sessions: store.EndedSessionRow[], at: Date): Promise<number> {
    await revocation.sessionsEnded(tx, { sessions, at });
    return sessions.length;
  }

  async function newRefreshToken(tx: Tx, tenantId: string, sessionId: string, expiresAt: Date): Promise<string> {
    const token = randomSecret();
    await store.insertRefreshToken(tx, {
      id: newId(),
      tenantId,
      sessionId,
      tokenHash: sha256Hex(token),
      createdAt: clock.now(),
      expiresAt,
    });
    return token;
  }

  /** A rotated token came back: end its session and raise the detection (Part A 3). */
  async function revokeReplayed(tx: Tx, replayed: { tenantId: string; sessionId: string }, now: Date): Promise<void> {
    await transactions.enterTenant(tx, replayed.tenantId);
    const state = await store.sessionState(tx, replayed.tenantId, replayed.sessionId);
    if (!state) return;
    const revoked = await store.revokeSession(tx, replayed.sessionId, now, 'refresh_token_replayed');
    if ((await ended(tx, revoked, now)) === 0) return;
    await events.emit(tx, {
      tenantId: replayed.tenantId,
      actor: { id: state.userId, type: 'human' },
      category: 'security',
      action: 'session.refresh_replayed',
      severity: 'high',
      outcome: 'denied',
      subjectUserId: state.userId,
      data: { session_id: replayed.sessionId },
    });
    await events.detect(tx, {
      tenantId: replayed.tenantId,
      ruleId: 'refresh-token-replay',
      groupKey: `actor:${state.userId}`,
      severity: 'high',
      data: { user_id: state.userId },
    });
  }

  async function pair(
    session: {
      tenantId: string;
      userId: string;
      sessionId: string;
      epoch: number;
      dpopJkt?: string | null | undefined;
    },
    refreshToken: string,
    refreshExpiresAt: Date,
  ): Promise<TokenPair> {
    const { token, expiresIn } = await accessTokens.issue({
      sub: session.userId,
      tid: session.tenantId,
      sid: session.sessionId,
      ep: session.epoch,
      act: 'human',
      ...(session.dpopJkt ? { cnf: { jkt: session.dpopJkt } } : {}),
    });
    return {
      access_token: token,
      refresh_token: refreshToken,
      token_type: session.dpopJkt ? 'DPoP' : 'bearer',
      expires_in: expiresIn,
      refresh_expires_in: Math.max(0, Math.floor((refreshExpiresAt.getTime() - clock.now().getTime()) / 1000)),
    };
  }

  /**
   * The rotation both refreshes share: the presented token is spent for a successor if its session is live and
   * belongs to `clientId` (null: a first-party session). A rotated token presented again ends its session and
   * raises a detection (`replayed`); anything else invalid changes nothing.
   */
  async function rotate(
    presented: string,
    proofJkt: string | undefined,
    clientId: string | null,
    within?: Tx,
  ): Promise<RotatedRefresh | { replayed: boolean }> {
    const tokenHash = sha256Hex(presented);
    const now = clock.now();
    const refreshToken = randomSecret();
    const expiresAt = {
      workforce: addMs(now, REFRESH_LIFETIME.workforce),
      customer: addMs(now, REFRESH_LIFETIME.customer),
    };
    const rotation = {
      tokenHash,
      proofJkt: proofJkt ?? null,
      clientId,
      now,
      successorId: newId(),
      successorHash: sha256Hex(refreshToken),
      expiresAt,
    };
    // In the caller's transaction when given (the token endpoint issues the successor's tokens in it too).
    const found = await (within
      ? store.rotateRefreshToken(within, rotation)
      : transactions.systemWrite((q) => store.rotateRefreshToken(q, rotation)));
    if (found?.rotated) {
      return {
        tenantId: found.tenant_id,
        userId: found.user_id,
        sessionId: found.session_id,
        epoch: found.token_epoch,
        dpopJkt: found.dpop_jkt,
        refreshToken,
        refreshExpiresAt: expiresAt[found.population],
      };
    }
    // Not live (or the wrong DPoP key or client): nothing changed. Otherwise the token is unknown, or was
    // rotated already (possibly a moment ago by a concurrent request): a rotated token coming back is a replay.
    if (found && !found.live) return { replayed: false };
    const detectReplay = async (tx: Tx) => {
      const replayed = await store.rotatedRefreshToken(tx, tokenHash);
      if (!replayed || replayed.clientId !== clientId) return { replayed: false };
      await revokeReplayed(tx, replayed, now);
      return { replayed: true };
    };
    return within ? detectReplay(within) : transactions.system(detectReplay);
  }

  /** Inserts a session row (first-party, or an OAuth grant when `grant` is given) and answers its id and expiry. */
  async function insert(
    tx: Tx,
    input: NewSession,
    grant?: Omit<NewGrantSession, keyof NewSession | 'refreshable'>,
  ): Promise<{ sessionId: string; expiresAt: Date }> {
    const now = clock.now();
    const sessionId = newId();
    const expiresAt = addMs(now, REFRESH_LIFETIME[input.population]);
    await store.insertSession(tx, {
      id: sessionId,
      tenantId: input.tenantId,
      userId: input.userId,
      epoch: input.epoch,
      amr: input.amr,
      authTime: grant?.authTime ?? now,
      dpopJkt: input.dpopJkt ?? null,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
      clientId: grant?.clientId ?? null,
      scope: grant?.scope ?? null,
      resource: grant?.resource ?? null,
      parentSessionId: grant?.parentSessionId ?? null,
    });
    return { sessionId, expiresAt };
  }

  return {
    /**
     * Starts a session inside the caller's tenant transaction and returns its tokens. The access token is
     * signed before commit, but nothing can use it until the session row commits.
     */
    async start(tx: Tx, input: NewSession): Promise<IssuedSession> {
      const { sessionId, expiresAt } = await insert(tx, input);
      const refreshToken = await newRefreshToken(tx, input.tenantId, sessionId, expiresAt);
      deps.metrics?.tokenIssued('session');
      return { sessionId, tokens: await pair({ ...input, sessionId }, refreshToken, expiresAt) };
    },

    /**
     * Starts an OAuth grant session inside the caller's tenant transaction (Part A 4.14), with a refresh token
     * when the client may refresh. The OpenID Provider mints the grant's access and ID tokens itself.
     */
    async startGrant(
      tx: Tx,
      input: NewGrantSession,
    ): Promise<{ sessionId: string; refreshToken: string | null; refreshExpiresAt: Date }> {
      const { sessionId, expiresAt } = await insert(tx, input, input);
      const refreshToken = input.refreshable ? await newRefreshToken(tx, input.tenantId, sessionId, expiresAt) : null;
      return { sessionId, refreshToken, refreshExpiresAt: expiresAt };
    },

    /** The OAuth grant a refresh token belongs to, read before rotating it; undefined for unknown tokens. */
    async grantOf(presented: string) {
      const grant = await transactions.systemRead((q) => store.grantOfRefreshToken(q, sha256Hex(presented)));
      return grant?.clientId && grant.scope !== null && grant.parentSessionId
        ? { ...grant, clientId: grant.clientId, scope: grant.scope, parentSessionId: grant.parentSessionId }
        : undefined;
    },

    /**
     * Rotates the refresh token of an OAuth grant session of `clientId` (Part A 4.14): the same one-statement
     * rotation as first-party refresh, and, when it is refused, the reason, which the token endpoint names in
     * `error_description`. A rotated token presented again ends the grant (Part A 3).
     */
    async rotateGrant(
      presented: string,
      clientId: string,
      proofJkt: string | undefined,
      within: Tx,
    ): Promise<RotatedRefresh | { refused: RefreshRefusal }> {
      const rotated = await rotate(presented, proofJkt, clientId, within);
      if ('refreshToken' in rotated) return rotated;
      if (rotated.replayed) return { refused: 'replayed' };
      const diagnosis = await store.refreshTokenDiagnosis(within, sha256Hex(presented));
      return { refused: refusalOf(diagnosis, clientId, proofJkt, clock.now()) };
    },

    /**
     * Rotates a refresh token (Part A 3): the presented token is spent and a new pair returned. A token that
     * was already rotated ends its whole session and raises a detection; anything else invalid is 401.
     * A DPoP-bound session (RFC 9449 section 5) needs a proof under its key: `proofJkt` is the thumbprint of
     * the request's verified proof. A wrong or missing key changes nothing (the token stays unspent).
     */
    async refresh(presented: string | undefined, proofJkt?: string): Promise<TokenPair> {
      if (!presented) throw unauthorized('Invalid refresh token');
      const rotated = await rotate(presented, proofJkt, null);
      if (!('refreshToken' in rotated)) throw unauthorized('Invalid refresh token');
      deps.metrics?.tokenIssued('session_refresh');
      return pair(rotated, rotated.refreshToken, rotated.refreshExpiresAt);
    },

    /**
     * A session that is live now (Part A 3) with how it signed in, or undefined: what the OpenID Provider reads
     * behind its browser-session cookie and before each grant.
     */
    async liveSession(tenantId: string, sessionId: string, within?: Queryable): Promise<LiveSession | undefined> {
      const read = async (q: Queryable) => {
        const state = await store.sessionState(q, tenantId, sessionId);
        if (!state || !sessionIsLive(state, clock.now())) return undefined;
        const authentication = await store.sessionAuthentication(q, tenantId, sessionId);
        if (!authentication) return undefined;
        return {
          tenantId,
          sessionId,
          userId: state.userId,
          epoch: state.tokenEpoch,
          population: state.population as Population,
          authTime: authentication.authTime,
          amr: authentication.amr,
          dpopJkt: state.dpopJkt,
        };
      };
      return within ? read(within) : transactions.systemRead(read);
    },

    /** Ends one session inside the caller's transaction; answers whether it was live. */
    async revoke(tx: Tx, sessionId: string, reason: string): Promise<boolean> {
      const now = clock.now();
      return (await ended(tx, await store.revokeSession(tx, sessionId, now, reason), now)) > 0;
    },

    /**
     * Part A 4.1 `DELETE /me/sessions/{sid}`: ends one live session of the person in the caller's transaction;
     * false when it is not theirs, unknown or already dead.
     */
    async revokeOwn(tx: Tx, own: { tenantId: string; userId: string; sessionId: string }, reason: string) {
      const now = clock.now();
      return (await ended(tx, await store.revokeOwnSession(tx, { ...own, now, reason }), now)) > 0;
    },

    /** Ends every live grant session of a person for one OAuth client (consent revoked, Part A 4.14). */
    async revokeGrantsOfClient(tx: Tx, grant: { tenantId: string; userId: string; clientId: string }) {
      const now = clock.now();
      return ended(tx, await store.revokeGrantSessionsOfClient(tx, { ...grant, now, reason: 'consent_revoked' }), now);
    },

    /** When and how a session signed in (step-up checks before sensitive changes). */
    authentication: (tx: Tx, tenantId: string, sessionId: string) =>
      store.sessionAuthentication(tx, tenantId, sessionId),

    /** Every session of a person in one organization, live and ended (privacy export). */
    ofUser: (tx: Tx, tenantId: string, userId: string) => store.sessionsOfUser(tx, tenantId, userId),

    /** Deletes a person's sessions in one organization (erasure, after they were ended). */
    deleteAllOfUser: (tx: Tx, tenantId: string, userId: string) => store.deleteSessionsOfUser(tx, tenantId, userId),

    /**
     * Ends every session of a user in one organization inside the caller's transaction (member removal,
     * IdP signals): each token of them is refused from its next use.
     */
    async revokeAllOfUser(tx: Tx, tenantId: string, userId: string, reason: string): Promise<number> {
      const now = clock.now();
      return ended(tx, await store.revokeSessionsOfUser(tx, tenantId, userId, now, reason), now);
    },

    /**
     * Undoes `revokeAllOfUser` for the sessions it ended under `reason` (an autonomy revert, Part B 4.9: "reversible
     * only via Part B revert"): revives the first-party ones except those that ended since for another reason
     * (expired, or minted under an epoch the account has left: signed out everywhere, password changed). Grant
     * sessions ended with them stay ended: their clients were told (back-channel logout). `ended` counts the
     * first-party sessions that reason ended, revived or not.
     */
    async reviveEndedBy(tx: Tx, tenantId: string, reason: string): Promise<{ ended: number; revived: string[] }> {
      const [count] = await rows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from sessions
            where tenant_id = ${tenantId} and revoked_reason = ${reason} and client_id is null`,
      );
      const revived = await rows<{ id: string }>(
        tx,
        sql`update sessions s set revoked_at = null, revoked_reason = null
            where s.tenant_id = ${tenantId} and s.revoked_reason = ${reason} and s.client_id is null
              and s.expires_at > ${clock.now()}
              and s.epoch = (select u.token_epoch from users u where u.id = s.user_id)
            returning s.id`,
      );
      return { ended: count?.n ?? 0, revived: revived.map((row) => row.id) };
    },

    /** Ends the caller's session: every token of it is refused from its next use. */
    async logout(principal: { tenantId: string; userId: string; sessionId: string }): Promise<void> {
      await transactions.tenant(principal.tenantId, async (tx) => {
        const now = clock.now();
        if ((await ended(tx, await store.revokeSession(tx, principal.sessionId, now, 'logout'), now)) > 0) {
          await events.emit(tx, {
            tenantId: principal.tenantId,
            actor: { id: principal.userId, type: 'human' },
            category: 'session',
            action: 'session.logged_out',
            subjectUserId: principal.userId,
            data: { user_id: principal.userId },
          });
        }
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
