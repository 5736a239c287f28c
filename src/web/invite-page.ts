import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http/index.js';
import { passwordWeakness } from '../modules/accounts/index.js';
import type { MembersService } from '../modules/members/index.js';
import { deliverPair } from '../modules/sign-in/index.js';
import type { Csrf } from './csrf.js';
import { errorBox, html, paragraph, type SafeHtml, sendPage } from './html.js';
import {
  csrfRefused,
  failurePage,
  incompleteLink,
  PAGE_OPTIONS,
  passwordInputs,
  passwordsOf,
  renderRefusal,
  tokenOf,
} from './pages.js';

type Preview = Awaited<ReturnType<MembersService['invitations']['preview']>>;

const NOT_USABLE = 'This invitation cannot be used';
const NOT_USABLE_HINT =
  'An invitation works once and only while it is pending: it may have been accepted already, revoked, or replaced by a newer invitation. Ask the person who invited you to send a new one.';

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** How someone who already has an account accepts: signed in, through accept-existing (no hosted sign-in yet). */
function existingAccountNote(preview: Preview): SafeHtml {
  return html`<p class="note">Already have an account for ${preview.email}? Do not create another one: sign in with
your current password, then accept the invitation while signed in. Applications built on this service do this with
<code>POST /api/v1/invites/accept-existing</code> and this invitation's token. The invitation stays valid until
${when(preview.expires_at)}.</p>`;
}

/**
 * `/invite?token=…` from the invitation mail. GET shows the organization and role (invitation preview, which
 * spends nothing) and a form to choose a password; the post accepts with a new account through the service
 * behind `POST /api/v1/invites/accept`. The invitation stays usable after any refusal.
 */
export function registerInvitePage(app: FastifyInstance, deps: { members: MembersService; csrf: Csrf }) {
  const { invitations } = deps.members;
  const { csrf } = deps;

  const title = (preview: Preview) => `Join ${preview.organization_name}`;

  function form(reply: FastifyReply, status: number, csrfToken: string, token: string, preview: Preview, problem = '') {
    return sendPage(
      reply,
      status,
      title(preview),
      html`${problem ? errorBox(problem) : ''}
<p>You are invited to join <strong>${preview.organization_name}</strong> as <strong>${preview.role}</strong>.</p>
<p>Choose a password for your new account, <strong>${preview.email}</strong>.</p>
<form method="post" action="/invite">
${csrf.field(csrfToken)}
<input type="hidden" name="token" value="${token}">
${passwordInputs('password', 'Password')}
<button type="submit">Create my account and join</button>
</form>
${existingAccountNote(preview)}`,
      {},
      { organization: preview.organization_name },
    );
  }

  /** The invitation behind a token, or the page that says why it cannot be used (404, 410, 429). */
  async function previewOrRefuse(request: FastifyRequest, reply: FastifyReply, token: string) {
    try {
      return await invitations.preview(token, request.ip);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) {
        failurePage(reply, 404, NOT_USABLE, NOT_USABLE_HINT);
        return undefined;
      }
      renderRefusal(reply, error, NOT_USABLE);
      return undefined;
    }
  }

  app.get('/invite', PAGE_OPTIONS, async (request, reply) => {
    const token = tokenOf(request.query);
    if (!token) return incompleteLink(reply, 'Invitation');
    const preview = await previewOrRefuse(request, reply, token);
    if (!preview) return reply;
    return form(reply, 200, csrf.issue(request, reply), token, preview);
  });

  app.post('/invite', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const token = tokenOf(request.body);
    if (!token) return incompleteLink(reply, 'Invitation');
    const preview = await previewOrRefuse(request, reply, token);
    if (!preview) return reply;
    const csrfToken = csrf.issue(request, reply);
    const input = passwordsOf(request.body, 'password');
    if ('problem' in input) return form(reply, 400, csrfToken, token, preview, input.problem);
    try {
      const userAgent = typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined;
      const pair = await invitations.accept({ token, password: input.password }, { ip: request.ip, userAgent });
      // The new session is the person's own: its refresh token goes into the API's httpOnly cookie, never the page.
      deliverPair(reply, pair, true);
    } catch (error) {
      if (error instanceof HttpError && error.status === 400 && error.detail === passwordWeakness(input.password)) {
        return form(reply, 400, csrfToken, token, preview, error.detail);
      }
      if (error instanceof HttpError && error.status === 409) {
        return failurePage(
          reply,
          409,
          title(preview),
          `An account for ${preview.email} already exists, or it is already a member, so no new account was created.`,
          existingAccountNote(preview),
          preview.organization_name,
        );
      }
      if (error instanceof HttpError && error.status === 404)
        return failurePage(reply, 404, NOT_USABLE, NOT_USABLE_HINT);
      return renderRefusal(reply, error, NOT_USABLE);
    }
    return sendPage(
      reply,
      200,
      `Welcome to ${preview.organization_name}`,
      html`<p>Your account is ready and you have joined <strong>${preview.organization_name}</strong> as
<strong>${preview.role}</strong>.</p>
${paragraph(`Sign in with ${preview.email}, your new password and the organization “${preview.tenant_slug}”.`)}`,
      {},
      { organization: preview.organization_name },
    );
  });
}
