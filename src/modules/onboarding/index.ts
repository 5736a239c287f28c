// The onboarding module (Part B 1.2, 4.5; issue 23): invite codes, the agent's bootstrap handshake, and the
// person's verification behind the hosted pages (src/web/onboard-verify-page.ts).

import { createBootstrap } from './bootstrap.js';
import type { OnboardingDeps } from './deps.js';
import { createInviteCodes } from './invite-codes.js';
import { createVerification } from './verification.js';

export type { OnboardingDeps } from './deps.js';
export { onboardingPersonalData } from './personal-data.js';
export { registerOnboardingRoutes } from './routes.js';
export type { ConfirmChoice, Verification } from './verification.js';

export function createOnboarding(deps: OnboardingDeps) {
  const inviteCodes = createInviteCodes(deps);
  return {
    inviteCodes,
    bootstrap: createBootstrap({ ...deps, inviteCodes }),
    verification: createVerification(deps),
  };
}

export type Onboarding = ReturnType<typeof createOnboarding>;
