import { createBrowserBinding } from '../sso/index.js';

export const SAML_FLOW_COOKIE = 'svc_saml_flow';

/**
 * Binds a SAML round trip to the browser that started it, as the OIDC flow is bound (login CSRF: a response lured
 * into another browser signs nobody in there): the request row keeps only the SHA-256 of the cookie's secret, and
 * the ACS accepts a response only with that cookie. `SameSite=None`, unlike the OIDC flow's Lax cookie: the
 * identity provider's response arrives as a cross-site form POST (HTTP-POST binding), which carries no Lax cookie.
 * Scoped to the SAML paths.
 */
export const samlBrowserBinding = createBrowserBinding({
  cookieName: SAML_FLOW_COOKIE,
  path: '/api/v1/auth/sso/saml',
  sameSite: 'none',
});
