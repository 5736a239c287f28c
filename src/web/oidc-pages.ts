import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessTokens } from '../kernel/auth/index.js';
import { HttpError } from '../kernel/http/index.js';
import type { AccountService } from '../modules/accounts/index.js';
import type { MagicLinkService } from '../modules/magic-link/index.js';
import type { MfaService } from '../modules/mfa/index.js';
import type { OpenIdProvider } from '../modules/oidc/index.js';
import type { PasskeyService } from '../modules/passkeys/index.js';
import {
  isMfaRequired,
  type RequestContext,
  type SessionService,
  type SignInResult,
  type TokenPair,
} from '../modules/sign-in/index.js';
import type { Csrf } from './csrf.js';
import { errorBox, html, noticeBox, pageCsp, paragraph, SafeHtml, sendPage } from './html.js';
import type { OrganizationNames } from './organization-names.js';
import { csrfRefused, failurePage, fieldOf, PAGE_OPTIONS, PASSWORD_MAX, renderRefusal } from './pages.js';

type AuthorizationRequest = NonNullable<ReturnType<OpenIdProvider['pendingRequests']['verify']>>['request'];

const SIGN_IN_TITLE = 'Sign in';
const CODE_TITLE = 'Enter your authentication code';
const CONSENT_TITLE = 'Allow access';
const LOGOUT_TITLE = 'Sign out';
const EXPIRED = 'This sign-in request expired or is incomplete. Go back to the application and start signing in again.';
const FIELD_MAX = 320;
const CODE_MAX = 64;
const REQUEST_MAX = 8192;

/** What each scope lets the application see, in the words of the consent page. */
const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your account id and organization)',
  profile: 'See your name and picture',
  email: 'See your email address',
};

/** A WebAuthn assertion as the browser serialises it: a few kilobytes at most. */
const ASSERTION_MAX = 16_384;

/**
 * The sign-in page's one script (passkeys need JavaScript; everything else works without): it asks the API for
 * request options, lets the browser's authenticator sign, and posts the assertion with the page's form, so the
 * sign-in completes on the server and no token ever reaches the page.
 */
const PASSKEY_SCRIPT = `(() => {
  'use strict';
  const form = document.getElementById('passkey-form');
  if (!form || !window.PublicKeyCredential) return;
  form.hidden = false;
  const b64u = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const fromB64u = (text) => {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const status = document.getElementById('passkey-status');
    try {
      const res = await fetch('/api/v1/webauthn/login/options', { method: 'POST' });
      if (res.status !== 200) throw new Error('options');
      const o = await res.json();
      const credential = await navigator.credentials.get({
        publicKey: { challenge: fromB64u(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials: [] },
      });
      const r = credential.response;
      form.elements.assertion.value = JSON.stringify({
        id: credential.id,
        rawId: b64u(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: b64u(r.clientDataJSON),
          authenticatorData: b64u(r.authenticatorData),
          signature: b64u(r.signature),
          userHandle: r.userHandle ? b64u(r.userHandle) : undefined,
        },
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
      });
      form.submit();
    } catch (error) {
      status.textContent = 'The passkey sign-in did not complete. Try again, or use your password.';
    }
  });
})();`;
const PASSKEY_SCRIPT_HASH = createHash('sha256').update(PASSKEY_SCRIPT).digest('base64');

const contextOf = (request: FastifyRequest): RequestContext => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
});

/**
 * The origin a form on these pages may end up at: the client's redirect URI (browsers hold a form's redirect
 * to `form-action`). A custom scheme is allowed as a scheme source.
 */
function clientTarget(redirectUri: string): string[] {
  const url = new URL(redirectUri);
  return [url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol];
}

/**
 * The OpenID Provider's hosted pages (Part A 4.14, ARCHITECTURE.md): `/login` (password, then the TOTP step when
 * enrolled), `/consent` (approve or deny) and `/logout` (the end-session confirmation). They work without
 * JavaScript; every form carries a CSRF token; the pending request travels MAC'd in a hidden field, and the
 * browser's sign-in is the provider's session cookie (modules/oidc/browser-sessions.ts).
 */
export type ContinueAuthorization = (
  request: FastifyRequest,
  reply: FastifyReply,
  pair: TokenPair,
) => Promise<FastifyReply | undefined>;

export function registerOidcPages(
  app: FastifyInstance,
  deps: {
    provider: OpenIdProvider;
    accounts: AccountService;
    mfa: MfaService;
    passkeys: PasskeyService;
    magicLinks: MagicLinkService;
    baseUrl: string;
    sessions: SessionService;
    accessTokens: AccessTokens;
    organizationNames: OrganizationNames;
    csrf: Csrf;
  },
): ContinueAuthorization {
  const { provider, accounts, mfa, passkeys, magicLinks, sessions, accessTokens, csrf, organizationNames } = deps;
  /**
   * A sign-in link asked for from /login: the pending authorization waits in this cookie (the MAC'd request,
   * 15 minutes) for the link to be opened in the same browser, where the magic-link page continues it.
   */
  const secure = deps.baseUrl.startsWith('https:');
  const pendingCookie = secure ? '__Host-svc_op_pending' : 'svc_op_pending';
  const pendingCookieOptions = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;

  const pendingOf = (source: unknown) => provider.pendingRequests.verify(fieldOf(source, 'request', REQUEST_MAX));

  /** A page of an authorization: its client's origin may end its forms, and it names the organization. */
  const send = async (
    reply: FastifyReply,
    status: number,
    title: string,
    body: SafeHtml,
    request?: AuthorizationRequest,
    headers: Record<string, string> = {},
  ) =>
    sendPage(
      reply,
      status,
      title,
      body,
      {
        ...(request ? { 'content-security-policy': pageCsp(clientTarget(request.redirectUri)) } : {}),
        ...headers,
      },
      { organization: request ? await organizationNames(request.tenantId) : undefined },
    );

  /** The sign-in page also runs its passkey script (by hash) and lets it call this origin's API. */
  const signInCsp = (authorization: AuthorizationRequest) =>
    `${pageCsp(clientTarget(authorization.redirectUri))}; script-src 'sha256-${PASSKEY_SCRIPT_HASH}'; connect-src 'self'`;

  /** A first factor done (password or passkey): the code step when TOTP is due, else the authorization goes on. */
  function afterFirstFactor(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: string,
    authorization: AuthorizationRequest,
    result: SignInResult,
  ) {
    if (isMfaRequired(result)) return codeForm(request, reply, pending, authorization, result.mfa_token);
    return continueSignedIn(reply, authorization, result);
  }

  function signInForm(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: string,
    authorization: AuthorizationRequest,
    status = 200,
    problem?: string,
    email?: string,
  ) {
    const token = csrf.issue(request, reply);
    return send(
      reply,
      status,
      SIGN_IN_TITLE,
      html`${problem ? errorBox(problem) : ''}${paragraph(`${authorization.clientName} asks you to sign in.`)}
<form method="post" action="/login">
${csrf.field(token)}
<input type="hidden" name="request" value="${pending}">
<label for="tenant_slug">Organization</label>
<input type="text" id="tenant_slug" name="tenant_slug" value="${authorization.tenantSlug}" readonly>
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" value="${email ?? authorization.loginHint ?? ''}" required>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/login/magic-link">
${csrf.field(token)}
<input type="hidden" name="request" value="${pending}">
<label for="link-email">Or get a sign-in link by email</label>
<input type="email" id="link-email" name="email" autocomplete="username" value="${email ?? authorization.loginHint ?? ''}" required>
<button type="submit" id="magic-link-request" class="secondary">Email me a sign-in link</button>
</form>
<form id="passkey-form" method="post" action="/login/passkey" hidden>
${csrf.field(token)}
<input type="hidden" name="request" value="${pending}">
<input type="hidden" name="assertion" value="">
<button type="submit" id="passkey-sign-in" class="secondary">Sign in with a passkey</button>
<p class="note" id="passkey-status" role="status"></p>
</form>
<script>${new SafeHtml(PASSKEY_SCRIPT)}</script>`,
      authorization,
      { 'content-security-policy': signInCsp(authorization) },
    );
  }

  function codeForm(
    request: FastifyRequest,
    reply: FastifyReply,
    pending: string,
    authorization: AuthorizationRequest,
    mfaToken: string,
    status = 200,
    problem?: string,
  ) {
    return send(
      reply,
      status,
      CODE_TITLE,
      html`${problem ? errorBox(problem) : ''}${paragraph('Enter the code from your authenticator app, or one of your recovery codes.')}
<form method="post" action="/login/mfa">
${csrf.field(csrf.issue(request, reply))}
<input type="hidden" name="request" value="${pending}">
<input type="hidden" name="mfa_token" value="${mfaToken}">
<label for="code">Code</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">Continue</button>
</form>`,
      authorization,
    );
  }

  /** Signed in: the browser's provider session is set and the authorization goes on (consent or code). */
  async function continueSignedIn(reply: FastifyReply, authorization: AuthorizationRequest, pair: TokenPair) {
    const claims = await accessTokens.verify(pair.access_token);
    const session = await sessions.liveSession(claims.tid, claims.sid);
    // A sign-in of another organization (an MFA step or a link begun elsewhere) never continues this one.
    if (!session || session.tenantId !== authorization.tenantId) {
      throw new HttpError(401, 'The sign-in could not be completed');
    }
    provider.browserSessions.set(reply, session);
    const { location } = await provider.authorize.next(authorization, session, { signedInNow: true });
    return reply.header('cache-control', 'no-store').redirect(location, 303);
  }

  app.get('/login', PAGE_OPTIONS, async (request, reply) => {
    const pending = fieldOf(request.query, 'request', REQUEST_MAX);
    const verified = provider.pendingRequests.verify(pending);
    if (!pending || !verified) return failurePage(reply, 400, SIGN_IN_TITLE, EXPIRED);
    return signInForm(request, reply, pending, verified.request);
  });

  app.post('/login', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const pending = fieldOf(request.body, 'request', REQUEST_MAX);
    const verified = pendingOf(request.body);
    if (!pending || !verified) return failurePage(reply, 400, SIGN_IN_TITLE, EXPIRED);
    const authorization = verified.request;
    const email = fieldOf(request.body, 'email', FIELD_MAX);
    const password = fieldOf(request.body, 'password', PASSWORD_MAX);
    const slug = fieldOf(request.body, 'tenant_slug', FIELD_MAX) ?? authorization.tenantSlug;
    if (!email || !password) {
      return signInForm(request, reply, pending, authorization, 400, 'Enter your email and password.', email);
    }
    // The application belongs to one organization; signing in to another could not authorize it.
    if (slug.toLowerCase() !== authorization.tenantSlug) {
      return signInForm(
        request,
        reply,
        pending,
        authorization,
        400,
        `${authorization.clientName} signs you in to the organization ${authorization.tenantSlug}.`,
        email,
      );
    }
    let result: SignInResult;
    try {
      result = await accounts.logIn({ email, password, tenantSlug: authorization.tenantSlug }, contextOf(request));
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        return signInForm(request, reply, pending, authorization, 401, error.detail, email);
      }
      return renderRefusal(reply, error, SIGN_IN_TITLE);
    }
    return afterFirstFactor(request, reply, pending, authorization, result);
  });

  /** "Email me a sign-in link": the same enumeration-safe request as `POST /auth/magic-link`. */
  app.post('/login/magic-link', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const pending = fieldOf(request.body, 'request', REQUEST_MAX);
    const verified = pendingOf(request.body);
    if (!pending || !verified) return failurePage(reply, 400, SIGN_IN_TITLE, EXPIRED);
    const email = fieldOf(request.body, 'email', FIELD_MAX);
    if (!email) return signInForm(request, reply, pending, verified.request, 400, 'Enter your email address.');
    magicLinks.requestLink({ email, tenantSlug: verified.request.tenantSlug }, request.ip);
    reply.setCookie(pendingCookie, pending, { ...pendingCookieOptions, maxAge: 15 * 60 });
    return send(
      reply,
      202,
      'Check your email',
      noticeBox(
        'If this address belongs to a member, a sign-in link is on its way. Open it in this browser within 15 minutes to continue.',
      ),
      verified.request,
    );
  });

  /** The passkey form: the assertion the page's script collected, verified like `POST /webauthn/login/verify`. */
  app.post('/login/passkey', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const pending = fieldOf(request.body, 'request', REQUEST_MAX);
    const verified = pendingOf(request.body);
    if (!pending || !verified) return failurePage(reply, 400, SIGN_IN_TITLE, EXPIRED);
    const authorization = verified.request;
    let assertion: unknown;
    try {
      assertion = JSON.parse(fieldOf(request.body, 'assertion', ASSERTION_MAX) ?? '');
    } catch {
      assertion = undefined;
    }
    if (!assertion || typeof assertion !== 'object') {
      return signInForm(request, reply, pending, authorization, 400, 'The passkey sign-in did not complete.');
    }
    let result: SignInResult;
    try {
      result = await passkeys.signInWithPasskey(
        {
          response: { clientExtensionResults: {}, ...(assertion as object) } as Parameters<
            PasskeyService['signInWithPasskey']
          >[0]['response'],
          tenantSlug: authorization.tenantSlug,
        },
        contextOf(request),
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) {
        return signInForm(request, reply, pending, authorization, 401, error.detail);
      }
      return renderRefusal(reply, error, SIGN_IN_TITLE);
    }
    return afterFirstFactor(request, reply, pending, authorization, result);
  });

  app.post('/login/mfa', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const pending = fieldOf(request.body, 'request', REQUEST_MAX);
    const verified = pendingOf(request.body);
    const mfaToken = fieldOf(request.body, 'mfa_token', 512);
    if (!pending || !verified || !mfaToken) return failurePage(reply, 400, CODE_TITLE, EXPIRED);
    const code = fieldOf(request.body, 'code', CODE_MAX)?.trim();
    if (!code) return codeForm(request, reply, pending, verified.request, mfaToken, 400, 'Enter the code.');
    let pair: TokenPair;
    try {
      pair = await mfa.completeChallenge({ mfaToken, code }, contextOf(request));
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) {
        return codeForm(request, reply, pending, verified.request, mfaToken, 400, error.detail);
      }
      return renderRefusal(reply, error, CODE_TITLE, 'Go back to the application and sign in again.');
    }
    return continueSignedIn(reply, verified.request, pair);
  });

  /** The consent page belongs to the browser session that was asked: another (or none) starts over. */
  async function consentSession(request: FastifyRequest, sid: string | undefined) {
    const session = await provider.readBrowserSession(request);
    return session && session.sessionId === sid ? session : undefined;
  }

  app.get('/consent', PAGE_OPTIONS, async (request, reply) => {
    const pending = fieldOf(request.query, 'request', REQUEST_MAX);
    const verified = provider.pendingRequests.verify(pending);
    if (!pending || !verified) return failurePage(reply, 400, CONSENT_TITLE, EXPIRED);
    const authorization = verified.request;
    if (!(await consentSession(request, verified.sid))) {
      return failurePage(reply, 401, CONSENT_TITLE, 'You are not signed in any more. Go back to the application.');
    }
    const scopes = authorization.scopes.map((scope) => html`<li>${SCOPE_TEXT[scope] ?? scope}</li>`);
    return send(
      reply,
      200,
      CONSENT_TITLE,
      html`${paragraph(`${authorization.clientName} wants to:`)}<ul>${scopes}</ul>
<form method="post" action="/consent">
${csrf.field(csrf.issue(request, reply))}
<input type="hidden" name="request" value="${pending}">
<button type="submit" name="approve" value="1">Allow</button>
<button type="submit" name="deny" value="1" class="secondary">Deny</button>
</form>`,
      authorization,
    );
  });

  app.post('/consent', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const verified = pendingOf(request.body);
    if (!verified) return failurePage(reply, 400, CONSENT_TITLE, EXPIRED);
    const authorization = verified.request;
    const session = await consentSession(request, verified.sid);
    if (!session) {
      return failurePage(reply, 401, CONSENT_TITLE, 'You are not signed in any more. Go back to the application.');
    }
    const approved = fieldOf(request.body, 'approve', 8) !== undefined;
    const denied = fieldOf(request.body, 'deny', 8) !== undefined;
    if (approved === denied) return failurePage(reply, 400, CONSENT_TITLE, 'Choose Allow or Deny.');
    const { location } = approved
      ? await provider.authorize.approve(authorization, session)
      : provider.authorize.deny(authorization);
    return reply.header('cache-control', 'no-store').redirect(location, 303);
  });

  app.get('/logout', PAGE_OPTIONS, async (request, reply) => {
    const pending = fieldOf(request.query, 'request', REQUEST_MAX);
    const verified = provider.pendingLogouts.verify(pending);
    if (!pending || !verified) {
      return failurePage(reply, 400, LOGOUT_TITLE, 'This sign-out request expired. Go back to the application.');
    }
    return sendPage(
      reply,
      200,
      LOGOUT_TITLE,
      html`${paragraph(`${verified.clientName} asks to sign you out. Do you want to sign out?`)}
<form method="post" action="/logout">
${csrf.field(csrf.issue(request, reply))}
<input type="hidden" name="request" value="${pending}">
<button type="submit" name="confirm" value="1">Sign out</button>
</form>`,
      verified.redirect ? { 'content-security-policy': pageCsp(clientTarget(verified.redirect)) } : {},
      { organization: await organizationNames(verified.tenantId) },
    );
  });

  app.post('/logout', PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const verified = provider.pendingLogouts.verify(fieldOf(request.body, 'request', REQUEST_MAX));
    if (!verified) {
      return failurePage(reply, 400, LOGOUT_TITLE, 'This sign-out request expired. Go back to the application.');
    }
    // Only the person signed in with that session can confirm its end: an ID token alone (any client that ever
    // received one) must not sign someone out (OIDC RP-Initiated Logout 1.0 section 6).
    const browser = await provider.readBrowserSession(request);
    if (browser && browser.sessionId === verified.sid) {
      await provider.confirmLogout(verified);
      provider.browserSessions.clear(reply);
    }
    if (verified.redirect) return reply.header('cache-control', 'no-store').redirect(verified.redirect, 303);
    return sendPage(reply, 200, 'You are signed out', paragraph('You can close this page.'));
  });

  /**
   * The magic-link page signed the person in: when this browser asked for the link from /login, the pending
   * authorization goes on (consent or code) instead of the page's "You are signed in".
   */
  return async (request, reply, pair) => {
    const verified = provider.pendingRequests.verify(request.cookies?.[pendingCookie]);
    if (!verified) return undefined;
    reply.clearCookie(pendingCookie, pendingCookieOptions);
    return continueSignedIn(reply, verified.request, pair);
  };
}
