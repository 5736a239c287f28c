import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret } from '../../kernel/crypto/index.js';
import { ROUND_TRIP_SECONDS } from '../sso/index.js';

export const SAML_FLOW_COOKIE = 'svc_saml_flow';
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * Binds a SAML round trip to the browser that started it, as the OIDC flow is bound (login CSRF: a response lured
 * into another browser signs nobody in there). The start sets a random secret in an httpOnly, Secure cookie; the
 * request row keeps only its SHA-256, and the ACS accepts a response only with that cookie. `SameSite=None`, unlike
 * the OIDC flow's Lax cookie: the identity provider's response arrives as a cross-site form POST (HTTP-POST
 * binding), which carries no Lax cookie. Scoped to the SAML paths; one secret serves every flow of the browser
 * while it lives.
 */
export const samlBrowserBinding = {
  read(request: FastifyRequest): string | undefined {
    const value = request.cookies?.[SAML_FLOW_COOKIE];
    return value && SECRET.test(value) ? value : undefined;
  },
  /** The browser's secret, or a new one (set it with `remember` once the start succeeded). */
  secretFor(request: FastifyRequest): string {
    return samlBrowserBinding.read(request) ?? randomSecret(32);
  },
  remember(reply: FastifyReply, secret: string): void {
    reply.setCookie(SAML_FLOW_COOKIE, secret, {
      httpOnly: true,
      secure: true,
      sameSite: 'none',
      path: '/api/v1/auth/sso/saml',
      maxAge: ROUND_TRIP_SECONDS,
    });
  },
};
