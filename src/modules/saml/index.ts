import type { FastifyInstance } from 'fastify';
import type { SamlDeps } from './common.js';
import { createSamlConnectionService } from './connection.js';
import { registerSamlAdminRoutes } from './routes.js';
import { createSamlSignIn } from './sign-in.js';
import { registerSamlSignInRoutes } from './sign-in-routes.js';
import { createSingleLogout } from './single-logout.js';

export { SAML_FLOW_COOKIE, samlBrowserBinding } from './browser-binding.js';
export type { Provision, SamlDeps, ServiceProvider } from './common.js';
export type { SamlConfigView } from './connection.js';

/**
 * Enterprise SSO over SAML 2.0 (Part A 4.6): the organization's SAML identity provider (configuration, metadata
 * import), SP-initiated sign-in (AuthnRequest over HTTP-Redirect, ACS over HTTP-POST), the service provider's
 * metadata, and IdP-initiated single logout. Sign-in ends in the SSO module's one-time codes, so
 * `POST /auth/sso/complete` finishes SAML and OIDC round trips alike. Stores no personal data of its own: the person
 * and their sign-ins are recorded by the SSO module (its identities and sign-ins, with their privacy contributor).
 */
export function createSaml(deps: SamlDeps) {
  const connection = createSamlConnectionService(deps);
  const signIn = createSamlSignIn(deps);
  return {
    connection,
    signIn,
    singleLogout: createSingleLogout(deps),
    /**
     * For the protocol-agnostic `POST /auth/sso/start`: the identity provider's URL with a new AuthnRequest bound to
     * the browser's secret, or undefined when the organization has no enabled SAML connection. The caller sets the
     * secret in the browser with `samlBrowserBinding.remember` (the ACS requires that cookie).
     */
    startSamlSignIn: signIn.startForTenant,
  };
}

export type Saml = ReturnType<typeof createSaml>;

export function registerSamlRoutes(app: FastifyInstance, saml: Saml): void {
  registerSamlAdminRoutes(app, saml);
  registerSamlSignInRoutes(app, saml);
}
