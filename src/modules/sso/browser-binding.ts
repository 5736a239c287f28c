import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret, sha256Base64Url, sha256Hex } from '../../kernel/crypto/index.js';

/** Part A 8: a federated sign-in round trip must finish within about 10 minutes. */
export const ROUND_TRIP_SECONDS = 600;
/** Part A 8: the one-time completion code lives 60 seconds. */
export const COMPLETION_CODE_SECONDS = 60;

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * Binds a federated round trip (social login, SSO) to the browser that started it. The start answer sets a
 * random secret in an httpOnly, Secure cookie scoped to the flow's paths; the flow row keeps only its SHA-256.
 * The callback is accepted only with that cookie, so a `state` (or a whole callback URL) lured into another
 * browser signs nobody in there (RFC 6749 section 10.12, login CSRF). The PKCE verifier and the nonce are derived
 * from the same secret, so the stored row alone cannot finish a flow. One secret serves every flow this browser
 * starts while it lives, so two tabs do not undo each other.
 *
 * SameSite=Lax by default: an OAuth provider's redirect back is a top-level GET from another site, which carries
 * it. `none` for a flow whose provider answers with a cross-site form POST (SAML's HTTP-POST binding).
 */
export function createBrowserBinding(options: { cookieName: string; path: string; sameSite?: 'lax' | 'none' }) {
  const cookieOptions = {
    httpOnly: true,
    secure: true,
    sameSite: options.sameSite ?? 'lax',
    path: options.path,
    maxAge: ROUND_TRIP_SECONDS,
  } as const;
  const read = (request: FastifyRequest): string | undefined => {
    const value = request.cookies?.[options.cookieName];
    return value && SECRET.test(value) ? value : undefined;
  };
  return {
    /** The browser's secret, if it sent a well-formed one. */
    read,
    /** The browser's secret, or a new one when it has none (set it with `remember` once the start succeeded). */
    secretFor: (request: FastifyRequest): string => read(request) ?? randomSecret(32),
    /** Sets (or renews) the cookie: its life restarts with each flow. */
    remember(reply: FastifyReply, secret: string): void {
      reply.setCookie(options.cookieName, secret, cookieOptions);
    },
  };
}

export type BrowserBinding = ReturnType<typeof createBrowserBinding>;

/** What the flow row stores of the browser's secret. */
export const bindingHashOf = (secret: string) => sha256Hex(`browser:${secret}`);

/** A value of one flow derived from the browser's secret: the PKCE verifier (RFC 7636 4.1, 43 chars) or nonce. */
export const derivedOf = (secret: string, flowId: string, purpose: 'pkce' | 'nonce') =>
  createHmac('sha256', secret).update(`${purpose}:${flowId}`).digest('base64url');

/** RFC 7636 section 4.2, S256. */
export const challengeOf = (verifier: string) => sha256Base64Url(verifier);

/**
 * The app's page a round trip returns to (SIGN_IN_RETURN_URL), with the outcome's parameters added to whatever
 * query it has.
 */
export function returnUrl(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}
