import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http/index.js';
import type { MagicLinkService } from '../modules/magic-link/index.js';
import type { MfaService } from '../modules/mfa/index.js';
import { deliverPair, isMfaRequired, type RequestContext, type TokenPair } from '../modules/sign-in/index.js';
import type { Csrf } from './csrf.js';
import { errorBox, html, noticeBox, paragraph, sendPage } from './html.js';
import type { ContinueAuthorization } from './oidc-pages.js';
import {
  csrfRefused,
  failurePage,
  fieldOf,
  incompleteLink,
  PAGE_OPTIONS,
  renderRefusal,
  TOKEN_MAX,
  tokenOf,
} from './pages.js';

const TITLE = 'Sign in';
const CODE_TITLE = 'Enter your authentication code';
const LINK_REFUSED = 'This link does not work';
const LINK_HINT =
  'Sign-in links work once and for 15 minutes, and asking for a new link makes the older one stop working. Ask for a new link where you signed in.';
const CHALLENGE_REFUSED = 'This sign-in cannot be completed';
const CHALLENGE_HINT = 'The code step lasts about 5 minutes and allows 5 attempts. Ask for a new sign-in link.';
/** Longest accepted code: a TOTP code or a recovery code, with room for separators. */
const CODE_MAX = 64;
/** Organization names are 1 to 255 characters (Part A 8). */
const ORGANIZATION_MAX = 255;

const contextOf = (request: FastifyRequest): RequestContext => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

/**
 * `/magic-link?token=…` from the sign-in mail (Part A 4.4). GET only shows a "Sign in" button: mail scanners
 * fetch links, and a fetch must not spend the token. The click posts the form, which redeems the link through
 * the service behind `POST /api/v1/auth/magic-link/verify`. When the account has TOTP enrolled, the answer is
 * a code form that completes the challenge through the service behind `POST /api/v1/mfa/challenge`.
 */
export function registerMagicLinkPage(
  app: FastifyInstance,
  deps: {
    magicLinks: MagicLinkService;
    mfa: MfaService;
    csrf: Csrf;
    /** Continues an authorization of the OpenID Provider that asked for this link (oidc-pages.ts). */
    continueAuthorization: ContinueAuthorization;
  },
): void {
  const { magicLinks, mfa, csrf } = deps;

  /** The session is the person's own: its refresh token goes into the API's httpOnly cookie, never the page. */
  async function signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    pair: TokenPair,
    organization: string | undefined,
  ) {
    const continued = await deps.continueAuthorization(request, reply, pair);
    if (continued) return continued;
    deliverPair(reply, pair, true);
    return sendPage(
      reply,
      200,
      'You are signed in',
      html`${noticeBox(organization ? `You are signed in to ${organization}.` : 'You are signed in.', 'success')}${paragraph(
        'You can close this page and go back to the application.',
      )}`,
      {},
      { organization },
    );
  }

  function codeForm(
    reply: FastifyReply,
    status: number,
    csrfToken: string,
    mfaToken: string,
    organization: string | undefined,
    problem?: string,
  ) {
    return sendPage(
      reply,
      status,
      CODE_TITLE,
      html`${problem ? errorBox(problem) : ''}
${paragraph('Your account is protected by a second factor. Enter the code from your authenticator app, or one of your recovery codes.')}
<form method="post" action="/magic-link/mfa">
${csrf.field(csrfToken)}
<input type="hidden" name="mfa_token" value="${mfaToken}">
${organization ? html`<input type="hidden" name="organization" value="${organization}">` : ''}
<label for="code">Code</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">Continue</button>
</form>`,
      {},
      { organization },
    );
  }

  app.get('/magic-link', PAGE_OPTIONS, async (request, reply) => {
    const token = tokenOf(request.query);
    if (!token) return incompleteLink(reply, TITLE);
    return sendPage(
      reply,
      200,
      TITLE,
      html`${paragraph('Press the button to sign in. The link works once.')}
<form method="post" action="/magic-link">
${csrf.field(csrf.issue(request, reply))}
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in</button>
</form>`,
    );
  });

  app.post('/magic-link', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const token = tokenOf(request.body);
    if (!token) return incompleteLink(reply, TITLE);
    let redeemed: Awaited<ReturnType<MagicLinkService['verify']>>;
    try {
      redeemed = await magicLinks.verify(token, contextOf(request));
    } catch (error) {
      return renderRefusal(reply, error, LINK_REFUSED, LINK_HINT);
    }
    const { result, organization } = redeemed;
    if (isMfaRequired(result)) {
      return codeForm(reply, 200, csrf.issue(request, reply), result.mfa_token, organization.name);
    }
    return signedIn(request, reply, result, organization.name);
  });

  app.post('/magic-link/mfa', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const mfaToken = fieldOf(request.body, 'mfa_token', TOKEN_MAX);
    if (!mfaToken)
      return failurePage(reply, 400, CHALLENGE_REFUSED, 'This form is incomplete.', paragraph(CHALLENGE_HINT));
    // Shown back on the success page only (escaped); it grants nothing.
    const organization = fieldOf(request.body, 'organization', ORGANIZATION_MAX);
    const csrfToken = csrf.issue(request, reply);
    const code = fieldOf(request.body, 'code', CODE_MAX)?.trim();
    if (!code) return codeForm(reply, 400, csrfToken, mfaToken, organization, 'Enter the code.');
    let pair: TokenPair;
    try {
      pair = await mfa.completeChallenge({ mfaToken, code }, contextOf(request));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // A wrong code leaves the challenge usable (Part A 4.2: 5 attempts): the form comes back with the reason.
      if (error.status === 400) return codeForm(reply, 400, csrfToken, mfaToken, organization, error.detail);
      // 503 when MFA is not provisioned on the installation: a page too, with the service's message.
      if (error.status === 503) {
        return failurePage(reply, 503, CHALLENGE_REFUSED, error.detail, undefined, organization);
      }
      return renderRefusal(reply, error, CHALLENGE_REFUSED, CHALLENGE_HINT, organization);
    }
    return signedIn(request, reply, pair, organization);
  });
}
