import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http/index.js';
import type { Onboarding } from '../modules/onboarding/index.js';
import type { Csrf } from './csrf.js';
import { errorBox, html, PAGE_CSP, paragraph, SafeHtml, sendPage } from './html.js';
import {
  csrfRefused,
  failurePage,
  fieldOf,
  incompleteLink,
  PAGE_OPTIONS,
  passwordInputs,
  passwordsOf,
  renderRefusal,
  tokenOf,
} from './pages.js';

// `/onboard/verify` (Part B 4.5; ARCHITECTURE.md "Onboarding invite codes"): the person's legs of an agent's
// onboarding, server-rendered and working without JavaScript except the passkey step. Enter the user code (a link
// is mailed); the link's page spends nothing until its button is clicked (confirm email and choose a password or
// a passkey); then review the plan of the parked manifest and approve or deny. From the click on, this browser is
// bound to the attempt by an httpOnly, SameSite=Strict cookie. Every form carries the CSRF token. Dormant (404
// like an unknown path) while ONBOARD_BOOTSTRAP_ENABLED is off.

const TITLE = 'Open your organization';
const OPTIONS = { ...PAGE_OPTIONS, config: { ...PAGE_OPTIONS.config, flag: 'onboardBootstrapEnabled' as const } };
const PLAN_HASH_MAX = 128;

type Review = Awaited<ReturnType<Onboarding['verification']['review']>>;
type Plan = NonNullable<Review['plan']>;

function planTable(plan: Plan): SafeHtml {
  const rows = plan.steps.map(
    (step) =>
      html`<tr><td>${String(step.index + 1)}</td><td>${step.kind}</td><td>${step.target}</td><td>${step.would}</td><td><code>${JSON.stringify(step.detail)}</code></td></tr>`,
  );
  const s = plan.summary;
  return html`<p>The agent also asks to configure your organization with this manifest. Plan <code>${plan.plan_hash.slice(0, 16)}</code>:
${String(s.create)} to create, ${String(s.noop)} already in place, ${String(s.conflict)} in conflict, ${String(s.invalid)} invalid.</p>
<div class="table-scroll" role="region" aria-label="Plan steps" tabindex="0"><table><thead><tr><th>#</th><th>Kind</th><th>Target</th><th>Would</th><th>Detail</th></tr></thead>
<tbody>${rows}</tbody></table></div>
${plan.grants.length ? html`<p>Permissions it would grant: <code>${plan.grants.join(', ')}</code></p>` : ''}
<p class="note">Approving with this plan shown pre-approves exactly this plan: the agent can apply it once. If anything changes before then, the agent asks again through your approval queue.</p>`;
}

const PASSKEY_SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const csrf = $('onboard').dataset.csrf;
  const fromB64u = (t) => { const b = atob(t.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((t.length + 3) % 4)); const u = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i); return u.buffer; };
  const toB64u = (buf) => { const u = new Uint8Array(buf); let s = ''; for (let i = 0; i < u.length; i++) s += String.fromCharCode(u[i]); return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''); };
  const post = (path, body) => fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body || {}) });
  $('create-passkey').addEventListener('click', async () => {
    $('error').hidden = true;
    try {
      const res = await post('/onboard/verify/passkey/options');
      if (res.status !== 200) throw new Error('options ' + res.status);
      const o = await res.json();
      const c = await navigator.credentials.create({ publicKey: { ...o, challenge: fromB64u(o.challenge), user: { ...o.user, id: fromB64u(o.user.id) }, excludeCredentials: (o.excludeCredentials || []).map((x) => ({ ...x, id: fromB64u(x.id) })) } });
      const r = c.response;
      const done = await post('/onboard/verify/passkey', { response: { id: c.id, rawId: toB64u(c.rawId), type: c.type, response: { clientDataJSON: toB64u(r.clientDataJSON), attestationObject: toB64u(r.attestationObject), transports: typeof r.getTransports === 'function' ? r.getTransports() : [] }, authenticatorAttachment: c.authenticatorAttachment || undefined, clientExtensionResults: c.getClientExtensionResults() } });
      if (done.status !== 201) throw new Error('register ' + done.status);
      window.location.assign('/onboard/verify/review');
    } catch (error) {
      $('error').textContent = 'The passkey was not created (' + (error && error.message ? error.message : 'error') + ').';
      $('error').hidden = false;
    }
  });
  document.body.dataset.ready = 'true';
})();`;
const PASSKEY_CSP = `${PAGE_CSP}; script-src 'sha256-${createHash('sha256').update(PASSKEY_SCRIPT).digest('base64')}'; connect-src 'self'`;

export function registerOnboardVerifyPage(
  app: FastifyInstance,
  deps: { onboarding: Onboarding; csrf: Csrf; baseUrl: string },
) {
  const { csrf } = deps;
  const verification = deps.onboarding.verification;
  const secure = deps.baseUrl.startsWith('https:');
  const cookieName = secure ? '__Host-svc_onboard' : 'svc_onboard';
  const browserOf = (request: FastifyRequest) => request.cookies?.[cookieName];

  function codeForm(reply: FastifyReply, status: number, csrfToken: string, problem = '') {
    return sendPage(
      reply,
      status,
      TITLE,
      html`${problem ? errorBox(problem) : ''}
<p>An AI agent is opening an organization for you. Enter the code it showed you.</p>
<form method="post" action="/onboard/verify">
${csrf.field(csrfToken)}
<label for="user_code">Code</label>
<input id="user_code" name="user_code" autocomplete="one-time-code" required placeholder="BCDF-GHJK">
<button type="submit">Continue</button>
</form>`,
    );
  }

  async function reviewPage(request: FastifyRequest, reply: FastifyReply, status = 200, problem = '') {
    let review: Review;
    try {
      review = await verification.review(browserOf(request));
    } catch (error) {
      return renderRefusal(reply, error, TITLE);
    }
    const { attempt, plan, hasSignInMethod } = review;
    if (attempt.status !== 'pending') {
      // A refused decision keeps its status and says why (a second approval while the first is being completed).
      return sendPage(
        reply,
        status,
        TITLE,
        html`${problem ? errorBox(problem) : ''}${paragraph(`This onboarding is ${attempt.status}. You can close this page.`)}`,
        {},
        { organization: attempt.organizationName },
      );
    }
    const token = csrf.issue(request, reply);
    const client = attempt.clientInfo ?? {};
    const agentName = [client.name, client.platform, client.model].filter(Boolean).join(', ') || 'an AI agent';
    const credentialStep = hasSignInMethod
      ? paragraph('Your account can sign in (password or passkey).')
      : html`<p class="error" role="alert">Your account has no passkey or password yet: approving is possible once it has one.</p>
${review.passkeyPossible ? html`<p><a href="/onboard/verify/passkey">Create a passkey</a></p>` : ''}`;
    return sendPage(
      reply,
      status,
      `Approve ${attempt.organizationName}`,
      html`${problem ? errorBox(problem) : ''}
<p><strong>${agentName}</strong> asks to open the organization <strong>${attempt.organizationName}</strong> for
<strong>${attempt.email}</strong> and to receive a credential. Until you approve, the organization is quarantined.</p>
${credentialStep}
${plan ? planTable(plan) : paragraph('The agent parked no manifest.')}
<p>Approving releases the agent with <code>manifest:plan</code> and <code>manifest:apply</code> for 7 days, granted by you.</p>
<form method="post" action="/onboard/verify/approve">
${csrf.field(token)}
${plan ? html`<input type="hidden" name="plan_hash" value="${plan.plan_hash}">` : ''}
<button type="submit" name="decision" value="approve">Approve</button>
</form>
<form method="post" action="/onboard/verify/deny">
${csrf.field(token)}
<button type="submit" name="decision" value="deny" class="danger">Deny and delete everything</button>
</form>`,
      {},
      { organization: attempt.organizationName, wide: plan !== null && plan !== undefined },
    );
  }

  app.get('/onboard/verify', OPTIONS, async (request, reply) => {
    const token = tokenOf(request.query);
    const csrfToken = csrf.issue(request, reply);
    if (!token) return codeForm(reply, 200, csrfToken);
    let preview: Awaited<ReturnType<typeof verification.preview>>;
    try {
      preview = await verification.preview(token);
    } catch (error) {
      return renderRefusal(reply, error, TITLE);
    }
    const choose = preview.confirmed
      ? html`<button type="submit" name="method" value="continue">Continue on this device</button>`
      : preview.account_exists
        ? html`<p class="note">An account already uses this address: it becomes the owner.</p>
<button type="submit" name="method" value="existing">Confirm my email</button>`
        : html`<button type="submit" name="method" value="passkey" formnovalidate>Confirm my email and create a passkey</button>
<p>Or choose a password instead:</p>
${passwordInputs('password', 'Password')}
<button type="submit" name="method" value="password" class="secondary" formnovalidate>Confirm my email and set this password</button>`;
    return sendPage(
      reply,
      200,
      TITLE,
      html`<p>Confirm <strong>${preview.email}</strong> to open <strong>${preview.organization_name}</strong>.</p>
<form method="post" action="/onboard/verify/confirm">
${csrf.field(csrfToken)}
<input type="hidden" name="token" value="${token}">
${choose}
</form>`,
      {},
      { organization: preview.organization_name },
    );
  });

  app.post('/onboard/verify', OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const csrfToken = csrf.issue(request, reply);
    const typed = fieldOf(request.body, 'user_code', 32);
    if (!typed) return codeForm(reply, 400, csrfToken, 'Enter the code your agent showed you.');
    try {
      const sent = await verification.enterCode(typed, { ip: request.ip });
      return sendPage(
        reply,
        200,
        'Check your email',
        paragraph(
          `We sent a link to ${sent.email} to confirm your address for “${sent.organization_name}”. Open it and click its button; it works once, for 48 hours.`,
        ),
        {},
        { organization: sent.organization_name },
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) return codeForm(reply, 404, csrfToken, error.detail);
      return renderRefusal(reply, error, TITLE);
    }
  });

  app.post('/onboard/verify/confirm', OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const token = tokenOf(request.body);
    if (!token) return incompleteLink(reply, TITLE);
    const method = fieldOf(request.body, 'method', 16);
    let choice: Parameters<typeof verification.confirm>[1] = { method: 'passkey' };
    if (method === 'password') {
      const input = passwordsOf(request.body, 'password');
      if ('problem' in input)
        return failurePage(reply, 400, TITLE, `${input.problem} Open the link from your email again.`);
      choice = { method: 'password', password: input.password };
    }
    try {
      const userAgent = typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined;
      const { browserSecret } = await verification.confirm(token, choice, { userAgent });
      reply.setCookie(cookieName, browserSecret, { httpOnly: true, sameSite: 'strict', secure, path: '/' });
    } catch (error) {
      return renderRefusal(reply, error, TITLE, 'Nothing was created.');
    }
    return reply.redirect(method === 'passkey' ? '/onboard/verify/passkey' : '/onboard/verify/review', 303);
  });

  app.get('/onboard/verify/review', OPTIONS, async (request, reply) => reviewPage(request, reply));

  app.get('/onboard/verify/passkey', OPTIONS, async (request, reply) => {
    const token = csrf.issue(request, reply);
    const body = html`<p>Create a passkey for your new account. Your browser asks your device to make one.</p>
<noscript><p class="error">This step needs JavaScript. <a href="/onboard/verify/review">Go back</a>.</p></noscript>
<p id="error" class="error" role="alert" hidden></p>
<div id="onboard" data-csrf="${token}"></div>
<button type="button" id="create-passkey">Create a passkey</button>
<script>${new SafeHtml(PASSKEY_SCRIPT)}</script>`;
    return sendPage(reply, 200, 'Create a passkey', body, { 'content-security-policy': PASSKEY_CSP });
  });

  const csrfHeaderRefused = (request: FastifyRequest) => {
    const header = request.headers['x-csrf-token'];
    return !csrf.verify(request, typeof header === 'string' ? header : undefined);
  };
  const CSRF_REFUSED = { detail: 'The request did not come from this page' };

  app.post('/onboard/verify/passkey/options', OPTIONS, async (request, reply) => {
    if (csrfHeaderRefused(request)) return reply.code(403).send(CSRF_REFUSED);
    return reply.code(200).send(await verification.passkeyOptions(browserOf(request)));
  });

  app.post('/onboard/verify/passkey', OPTIONS, async (request, reply) => {
    if (csrfHeaderRefused(request)) return reply.code(403).send(CSRF_REFUSED);
    const response = (request.body as { response?: unknown } | undefined)?.response;
    return reply.code(201).send(await verification.passkeyRegister(browserOf(request), response));
  });

  app.post('/onboard/verify/approve', OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    try {
      const done = await verification.approve(browserOf(request), fieldOf(request.body, 'plan_hash', PLAN_HASH_MAX));
      return sendPage(
        reply,
        200,
        'Approved',
        html`<p>Your organization is open and your agent receives its credential on its next poll.</p>
${done.preapproved ? paragraph('The plan you reviewed is approved: the agent can apply it once.') : paragraph('Any configuration the agent proposes goes through your approval queue.')}`,
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) return reviewPage(request, reply, 409, error.detail);
      return renderRefusal(reply, error, TITLE);
    }
  });

  app.post('/onboard/verify/deny', OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    try {
      await verification.deny(browserOf(request));
    } catch (error) {
      return renderRefusal(reply, error, TITLE);
    }
    reply.clearCookie(cookieName, { path: '/' });
    return sendPage(
      reply,
      200,
      'Denied',
      paragraph('Nothing was kept: the organization, its account and the agent’s request are gone.'),
    );
  });
}
