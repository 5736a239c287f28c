import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../kernel/http/index.js';
import { type AccountService, passwordWeakness } from '../modules/accounts/index.js';
import type { Csrf } from './csrf.js';
import { errorBox, html, paragraph, sendPage } from './html.js';
import {
  csrfRefused,
  incompleteLink,
  PAGE_OPTIONS,
  passwordInputs,
  passwordsOf,
  renderRefusal,
  tokenOf,
} from './pages.js';

const TITLE = 'Choose a new password';

/**
 * `/reset-password?token=…` from the reset mail. GET shows the form; the post calls the service behind
 * `POST /api/v1/auth/reset-password`, which applies the password policy, spends the link and ends every
 * session. A password the policy refuses shows the form again with the reason; the link stays usable.
 */
export function registerResetPasswordPage(app: FastifyInstance, deps: { accounts: AccountService; csrf: Csrf }) {
  const { accounts, csrf } = deps;

  const form = (reply: FastifyReply, status: number, csrfToken: string, token: string, problem?: string) =>
    sendPage(
      reply,
      status,
      TITLE,
      html`${problem ? errorBox(problem) : ''}
<form method="post" action="/reset-password">
${csrf.field(csrfToken)}
<input type="hidden" name="token" value="${token}">
${passwordInputs('new_password', 'New password')}
<button type="submit">Set the new password</button>
</form>`,
    );

  app.get('/reset-password', PAGE_OPTIONS, async (request, reply) => {
    const token = tokenOf(request.query);
    if (!token) return incompleteLink(reply, TITLE);
    return form(reply, 200, csrf.issue(request, reply), token);
  });

  app.post('/reset-password', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const token = tokenOf(request.body);
    if (!token) return incompleteLink(reply, TITLE);
    const csrfToken = csrf.issue(request, reply);
    const input = passwordsOf(request.body, 'new_password');
    if ('problem' in input) return form(reply, 400, csrfToken, token, input.problem);
    try {
      await accounts.resetPassword(token, input.password);
    } catch (error) {
      // The service states the policy's reason; a refusal carrying exactly that reason is about the password.
      if (error instanceof HttpError && error.status === 400 && error.detail === passwordWeakness(input.password)) {
        return form(reply, 400, csrfToken, token, error.detail);
      }
      return renderRefusal(
        reply,
        error,
        'This link does not work',
        'Reset links work once and for 30 minutes. Ask for a new one from the sign-in screen ("forgot password").',
      );
    }
    return sendPage(
      reply,
      200,
      'Password changed',
      html`${paragraph('Your password has been changed.')}${paragraph(
        'For your safety every device that was signed in has been signed out. Sign in again with your new password.',
      )}`,
    );
  });
}
