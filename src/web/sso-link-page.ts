import type { FastifyInstance } from 'fastify';
import type { Csrf } from './csrf.js';
import { registerOneClickPage } from './one-click-page.js';

/** `/sso/link?token=…` from the mail an SSO sign-in sends (`POST /api/v1/auth/sso/link/confirm` behind the click). */
export function registerSsoLinkPage(
  app: FastifyInstance,
  deps: { sso: { confirmLink(token: string): Promise<void> }; csrf: Csrf },
) {
  registerOneClickPage(app, deps.csrf, {
    path: '/sso/link',
    title: 'Sign in through your organization’s single sign-on',
    prompt:
      'Press the button only if you just signed in through your organization’s identity provider and want it to sign you in to this account from now on.',
    button: 'Link my account',
    act: (token) => deps.sso.confirmLink(token),
    refusalHint:
      'Links work once and for 30 minutes. Sign in through your organization’s single sign-on again for a new one.',
    done: {
      title: 'Account linked',
      message: 'Your account is linked: sign in through your organization’s single sign-on again.',
    },
  });
}
