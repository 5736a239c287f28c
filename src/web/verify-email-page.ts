import type { FastifyInstance } from 'fastify';
import type { AccountService } from '../modules/accounts/index.js';
import type { Csrf } from './csrf.js';
import { registerOneClickPage } from './one-click-page.js';

/** `/verify-email?token=…` from the verification mail (`POST /api/v1/auth/verify-email` behind the click). */
export function registerVerifyEmailPage(app: FastifyInstance, deps: { accounts: AccountService; csrf: Csrf }) {
  registerOneClickPage(app, deps.csrf, {
    path: '/verify-email',
    title: 'Confirm your email address',
    prompt: 'Press the button to confirm that this email address is yours.',
    button: 'Confirm my email address',
    act: (token) => deps.accounts.verifyEmail(token),
    refusalHint:
      'Confirmation links work once and for 48 hours. If your address is not confirmed yet, ask for a new link from the application where you signed up.',
    done: { title: 'Email address confirmed', message: 'Thank you: your email address is confirmed.' },
  });
}
