import type { FastifyReply, FastifyRequest } from 'fastify';
import { isMfaRequired, type SignInResult } from './finish.js';
import type { TokenPair } from './sessions.js';

/** Part A 4.1 cookie transport: the refresh token travels only in this cookie, scoped to the auth paths. */
export const REFRESH_COOKIE = 'svc_refresh';
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

const cookieOptions = { httpOnly: true, secure: true, sameSite: 'strict', path: REFRESH_COOKIE_PATH } as const;

export const refreshCookieOf = (request: FastifyRequest): string | undefined => {
  const value = request.cookies?.[REFRESH_COOKIE];
  return value ? value : undefined;
};

export function clearRefreshCookie(reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, cookieOptions);
}

/**
 * The body of a token-issuing answer. In cookie mode the refresh token is set as an httpOnly, Secure,
 * SameSite=Strict cookie and the body carries `refresh_token: null`.
 */
/** An answer that carries a token or secret is never stored by a browser or a proxy (RFC 6749 section 5.1). */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

export function deliverPair(reply: FastifyReply, pair: TokenPair, useCookie: boolean | undefined): TokenPair {
  noStore(reply);
  if (!useCookie || !pair.refresh_token) return pair;
  reply.setCookie(REFRESH_COOKIE, pair.refresh_token, {
    ...cookieOptions,
    ...(pair.refresh_expires_in ? { maxAge: pair.refresh_expires_in } : {}),
  });
  return { ...pair, refresh_token: null };
}

/** A sign-in's answer: an MFA challenge as it is, a token pair as `deliverPair` shapes it. */
export function deliverSignIn(reply: FastifyReply, result: SignInResult, useCookie: boolean | undefined) {
  if (!isMfaRequired(result)) return deliverPair(reply, result, useCookie);
  noStore(reply);
  return result;
}
