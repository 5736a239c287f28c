import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret, secretsEqual } from '../kernel/crypto/index.js';
import { html, type SafeHtml } from './html.js';

/** Name of the hidden form field that repeats the cookie's value. */
export const CSRF_FIELD = 'csrf_token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Double-submit CSRF protection (OWASP CSRF cheat sheet): a random value in an httpOnly, SameSite=Strict
 * cookie and the same value in a hidden field of every form. Another site can make a browser post a form, but
 * cannot read or set this cookie, so it cannot make the field match. Over HTTPS the cookie carries the
 * `__Host-` prefix (RFC 6265bis 4.1.3.2): Secure, host-only, path `/`, so a sibling subdomain cannot plant one.
 */
export function createCsrf(baseUrl: string) {
  const secure = baseUrl.startsWith('https:');
  const cookieName = secure ? '__Host-svc_csrf' : 'svc_csrf';
  const cookieOptions = { httpOnly: true, sameSite: 'strict', secure, path: '/' } as const;

  const presented = (request: FastifyRequest): string | undefined => {
    const value = request.cookies?.[cookieName];
    return value && TOKEN_SHAPE.test(value) ? value : undefined;
  };

  return {
    cookieName,

    /**
     * The token for a form on this response: the browser's current one when it sent it, else a new one set as
     * the cookie (a link opened from another site arrives without SameSite=Strict cookies).
     */
    issue(request: FastifyRequest, reply: FastifyReply): string {
      const current = presented(request);
      if (current) return current;
      const token = randomSecret();
      reply.setCookie(cookieName, token, cookieOptions);
      return token;
    },

    /** True when the posted field equals the cookie, compared in constant time. */
    verify(request: FastifyRequest, field: string | undefined): boolean {
      const cookie = presented(request);
      if (!cookie || !field) return false;
      return secretsEqual(cookie, field);
    },

    field(token: string): SafeHtml {
      return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
    },
  };
}

export type Csrf = ReturnType<typeof createCsrf>;
