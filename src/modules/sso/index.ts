import type { SsoDeps } from './common.js';
import { createConnectionTest } from './connection-test.js';
import { createEnforcementService } from './enforcement.js';
import { createOidcConfigService } from './oidc-config.js';

export type { OidcConfigView } from './oidc-config.js';
export { registerSsoRoutes } from './routes.js';

/**
 * Enterprise SSO (Part A 4.6): the organization's OIDC identity provider (configuration and connection test) and
 * SSO enforcement. The sign-in flow itself (`/auth/sso/*`) is a later change. No personal data is stored here:
 * a connection names an identity provider and a client, not a person.
 */
export function createSso(deps: SsoDeps) {
  const oidc = createOidcConfigService(deps);
  return {
    oidc,
    connectionTest: createConnectionTest({ ...deps, config: oidc }),
    enforcement: createEnforcementService(deps),
  };
}

export type Sso = ReturnType<typeof createSso>;
