import type { FastifyInstance } from 'fastify';
import type { EarlyAccessService } from '../modules/early-access/index.js';
import type { Csrf } from './csrf.js';
import { registerOneClickPage } from './one-click-page.js';

/**
 * `/early-access/confirm?token=…` from the waitlist mail, double opt-in (`POST /api/v1/early-access/confirm`
 * behind the click).
 */
export function registerEarlyAccessConfirmPage(
  app: FastifyInstance,
  deps: { earlyAccess: EarlyAccessService; csrf: Csrf },
) {
  registerOneClickPage(app, deps.csrf, {
    path: '/early-access/confirm',
    title: 'Confirm your early-access request',
    prompt: 'Press the button to confirm your email address and keep your place on the early-access list.',
    button: 'Confirm my request',
    act: async (token) => {
      await deps.earlyAccess.confirm(token);
    },
    refusalHint:
      'Confirmation links work once, for 7 days after your latest request. Sending the request again mails a new link.',
    done: {
      title: 'Request confirmed',
      message: 'Thank you: your address is confirmed. We will write to you when your place opens.',
    },
  });
}
