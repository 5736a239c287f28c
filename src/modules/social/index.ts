import type { SocialDeps } from './common.js';
import { createSocialIdentities } from './identities.js';
import { socialPersonalData } from './personal-data.js';
import { configuredProviders } from './providers.js';
import { createSocialSignIn } from './sign-in.js';

export type { SocialDeps } from './common.js';
export { PROVIDER_IDS, type ProviderId } from './providers.js';
export { registerSocialRoutes, SOCIAL_FLOW_COOKIE } from './routes.js';
export { INVALID_CODE, LINK_SIGN_IN_WINDOW_MS, SOCIAL_STARTS_PER_IP } from './sign-in.js';

/**
 * Social login (Part A 4.5): sign-in with the providers this deployment configured (Google over OpenID Connect,
 * GitHub over OAuth 2.0 and its API), and the provider accounts people link to themselves in an organization.
 */
export function createSocial(deps: SocialDeps) {
  deps.personalData.add(socialPersonalData());
  const providers = configuredProviders(deps);
  return {
    signIn: createSocialSignIn(deps, providers),
    identities: createSocialIdentities(deps, providers),
  };
}

export type Social = ReturnType<typeof createSocial>;
