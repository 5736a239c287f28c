import type { AccessTokens, Population } from '../../kernel/auth/index.js';
import { addMs, type Clock, days } from '../../kernel/clock.js';
import { randomSecret, sha256Hex } from '../../kernel/crypto/index.js';
import type { Queryable, Transactions, Tx } from '../../kernel/db/index.js';
import type { Events } from '../../kernel/events/index.js';
import { unauthorized } from '../../kernel/http/index.js';
import { newId } from '../../kernel/ids.js';
import type { Metrics } from '../../kernel/observability/index.js';
import * as store from './store.js';

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
  /** The browser session that signed in: the ID token's `sid`; its end ends the grant (migration 0013). */
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

/**
 * Why a refresh token was refused (Part A 4.14: the OAuth refresh names the reason). `replayed` also ended the
 * session and raised the detection.
 */
export type RefreshRefusal =
  | 'invalid'
  | 'replayed'
  | 'expired'
  | 'session_ended'
  | 'consent_revoked'
  | 'account_inactive'
  | 'not_a_member'
  | 'password_changed'
  | 'signed_out_everywhere'
  | 'other_key';

/** Part A 4.1 and 4.2: a first factor verified for an account with TOTP enrolled answers this instead of tokens. */
export interface MfaRequired {
  mfa_required: true;
  mfa_token: string;
}

/** What a sign-in answers: a token pair, or the MFA challenge to complete with `POST /mfa/challenge`. */
export type SignInResult = TokenPair | MfaRequired;

export const isMfaRequired = (result: SignInResult): result is MfaRequired => 'mfa_required' in result;

/**
 * Finishes a verified first factor inside the caller's tenant transaction: starts the session, or, when the
 * account has TOTP enrolled, issues an MFA challenge that starts it later (Part A 4.2). `multiFactor` marks a
 * first factor that already counts as two (a user-verified passkey); nothing else skips an enrolled factor.
 * The MFA module provides it; every sign-in method (password, magic link, passkey, social, SSO) calls it.
 */
export type SignIn = (tx: Tx, firstFactor: NewSession, options?: { multiFactor?: boolean }) => Promise<SignInResult>;

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
  metrics?: Pick<Metrics, 'tokenIssued'>;
}) {
  const { transactions, accessTokens, events, clock } = deps;

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
    if (!state || !(await store.revokeSession(tx, replayed.sessionId, now, 'refresh_token_replayed'))) return;
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
    revoke(tx: Tx, sessionId: string, reason: string): Promise<boolean> {
      return store.revokeSession(tx, sessionId, clock.now(), reason);
    },

    /**
     * Ends every session of a user in one organization inside the caller's transaction (member removal,
     * IdP signals): each token of them is refused from its next use.
     */
    async revokeAllOfUser(tx: Tx, tenantId: string, userId: string, reason: string): Promise<number> {
      return store.revokeSessionsOfUser(tx, tenantId, userId, clock.now(), reason);
    },

    /** Ends the caller's session: every token of it is refused from its next use. */
    async logout(principal: { tenantId: string; userId: string; sessionId: string }): Promise<void> {
      await transactions.tenant(principal.tenantId, async (tx) => {
        if (await store.revokeSession(tx, principal.sessionId, clock.now(), 'logout')) {
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

/** The reason recorded when a session ended, as the refusal a grant's refresh names. */
const REVOKED_BECAUSE: Record<string, RefreshRefusal> = {
  consent_revoked: 'consent_revoked',
  signed_out_everywhere: 'signed_out_everywhere',
  password_changed: 'password_changed',
  password_reset: 'password_changed',
  member_removed: 'not_a_member',
  scim_deactivated: 'not_a_member',
  scim_deleted: 'not_a_member',
  erased: 'account_inactive',
  refresh_token_replayed: 'replayed',
  authorization_code_replayed: 'replayed',
};

/** Part A 4.14: the reason a grant's refresh token is refused, from the state of its session now. */
function refusalOf(
  diagnosis: store.RefreshTokenDiagnosis | undefined,
  clientId: string,
  proofJkt: string | undefined,
  now: Date,
): RefreshRefusal {
  if (!diagnosis || diagnosis.clientId !== clientId) return 'invalid';
  if (diagnosis.revokedAt !== null) return REVOKED_BECAUSE[diagnosis.revokedReason ?? ''] ?? 'session_ended';
  if (diagnosis.userStatus !== 'active') return 'account_inactive';
  if (diagnosis.membershipStatus !== 'active') return 'not_a_member';
  if (diagnosis.sessionEpoch !== diagnosis.tokenEpoch) {
    return diagnosis.passwordChangedAt !== null && diagnosis.passwordChangedAt > diagnosis.createdAt
      ? 'password_changed'
      : 'signed_out_everywhere';
  }
  if (diagnosis.expiresAt <= now || diagnosis.sessionExpiresAt <= now) return 'expired';
  if (diagnosis.dpopJkt !== null && diagnosis.dpopJkt !== (proofJkt ?? null)) return 'other_key';
  return 'invalid';
}
