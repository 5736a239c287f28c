import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { html, layout, PAGE_CSP, SafeHtml } from './html.js';
import { PAGE_OPTIONS } from './pages.js';

const TITLE = 'Your passkeys';

/**
 * The page's one script: it talks only to this origin's API (`/api/v1/...`), keeps the access token (and an
 * MFA token) in memory, never shows or logs a token, and leaves the refresh token to the httpOnly cookie.
 * Binary WebAuthn values are converted to and from base64url by hand, so no bundler or library is needed.
 */
const SCRIPT = `(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  let accessToken = null;
  let mfaToken = null;

  const fromB64u = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  };
  const toB64u = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };

  async function api(method, path, body) {
    const headers = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = 'Bearer ' + accessToken;
    const response = await fetch('/api/v1' + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    return { status: response.status, data };
  }

  const detailOf = (res, fallback) => (res.data && typeof res.data.detail === 'string' ? res.data.detail : fallback);

  function say(message) {
    $('error').hidden = true;
    $('error').textContent = '';
    $('status').textContent = message;
  }
  function fail(message) {
    $('status').textContent = '';
    $('error').textContent = message;
    $('error').hidden = false;
  }

  function showSignedOut() {
    accessToken = null;
    mfaToken = null;
    $('state').textContent = 'Signed out';
    $('signed-in').hidden = true;
    $('signed-out').hidden = false;
    $('mfa-form').hidden = true;
    $('signed-in-email').textContent = '';
    $('passkey-list').replaceChildren();
  }

  async function refreshList() {
    const res = await api('GET', '/webauthn/credentials');
    if (res.status !== 200) return fail(detailOf(res, 'The passkeys could not be listed.'));
    const items = res.data.map((passkey) => {
      const item = document.createElement('li');
      item.className = 'passkey';
      item.textContent = passkey.name + ' (added ' + passkey.created_at.slice(0, 10) +
        (passkey.last_used_at ? ', last used ' + passkey.last_used_at.slice(0, 10) : '') + ')';
      return item;
    });
    $('passkey-list').replaceChildren(...items);
    $('passkey-count').textContent = String(items.length);
  }

  /** A sign-in answer: tokens (the refresh token is in the cookie), or a TOTP challenge to complete. */
  async function signedIn(res, fallback) {
    if (res.status !== 200) return fail(detailOf(res, fallback));
    if (res.data.mfa_required) {
      mfaToken = res.data.mfa_token;
      $('mfa-form').hidden = false;
      return say('Enter the code from your authenticator app.');
    }
    accessToken = res.data.access_token;
    mfaToken = null;
    const profile = await api('GET', '/me/profile');
    $('signed-in-email').textContent = profile.status === 200 ? profile.data.email : '';
    $('state').textContent = 'Signed in';
    $('signed-out').hidden = true;
    $('mfa-form').hidden = true;
    $('signed-in').hidden = false;
    say('');
    await refreshList();
  }

  $('password-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    say('Signing in...');
    const res = await api('POST', '/auth/login', {
      email: $('email').value,
      password: $('password').value,
      tenant_slug: $('organization').value.trim(),
      use_cookie: true,
    });
    $('password').value = '';
    await signedIn(res, 'Sign-in failed.');
  });

  $('mfa-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const res = await api('POST', '/mfa/challenge', { mfa_token: mfaToken, code: $('mfa-code').value.trim(), use_cookie: true });
    $('mfa-code').value = '';
    await signedIn(res, 'The code was not accepted.');
  });

  $('passkey-sign-in-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      say('Waiting for your passkey...');
      const options = await api('POST', '/webauthn/login/options');
      if (options.status !== 200) return fail(detailOf(options, 'Could not start the passkey sign-in.'));
      const o = options.data;
      const credential = await navigator.credentials.get({
        publicKey: {
          challenge: fromB64u(o.challenge),
          rpId: o.rpId,
          timeout: o.timeout,
          userVerification: o.userVerification,
          allowCredentials: [],
        },
      });
      const r = credential.response;
      const res = await api('POST', '/webauthn/login/verify', {
        id: credential.id,
        rawId: toB64u(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: toB64u(r.clientDataJSON),
          authenticatorData: toB64u(r.authenticatorData),
          signature: toB64u(r.signature),
          userHandle: r.userHandle ? toB64u(r.userHandle) : undefined,
        },
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
        tenant_slug: $('passkey-organization').value.trim(),
        use_cookie: true,
      });
      await signedIn(res, 'Passkey sign-in failed.');
    } catch (error) {
      fail('The passkey sign-in did not complete (' + (error && error.name ? error.name : 'error') + ').');
    }
  });

  $('add-passkey-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      say('Follow the browser prompt to create the passkey...');
      const options = await api('POST', '/webauthn/credentials/options');
      if (options.status !== 200) return fail(detailOf(options, 'Could not start adding a passkey.'));
      const o = options.data;
      const credential = await navigator.credentials.create({
        publicKey: {
          ...o,
          challenge: fromB64u(o.challenge),
          user: { ...o.user, id: fromB64u(o.user.id) },
          excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: fromB64u(c.id) })),
        },
      });
      const r = credential.response;
      const name = $('passkey-name').value.trim();
      const res = await api('POST', '/webauthn/credentials', {
        id: credential.id,
        rawId: toB64u(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: toB64u(r.clientDataJSON),
          attestationObject: toB64u(r.attestationObject),
          transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
        },
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
        clientExtensionResults: credential.getClientExtensionResults(),
        name: name || undefined,
      });
      if (res.status !== 201) return fail(detailOf(res, 'The passkey could not be added.'));
      $('passkey-name').value = '';
      say('Passkey added: ' + res.data.name);
      await refreshList();
    } catch (error) {
      fail('The passkey was not created (' + (error && error.name ? error.name : 'error') + ').');
    }
  });

  $('sign-out').addEventListener('click', async () => {
    await api('POST', '/auth/logout');
    showSignedOut();
    say('Signed out.');
  });

  (async () => {
    if (!window.PublicKeyCredential) fail('This browser does not support passkeys.');
    // Signed in already (the refresh cookie is there): rotate it and carry on with the new tokens.
    const res = await api('POST', '/auth/refresh');
    if (res.status === 200) await signedIn(res, '');
    else showSignedOut();
    document.body.dataset.ready = 'true';
  })();
})();`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

/**
 * The hosted pages' policy plus exactly this page's needs: its one script (by hash) and calls to this origin's
 * API. Everything else (no other script, style or frame) is as strict as on every other page.
 */
const CSP = `${PAGE_CSP}; script-src 'sha256-${SCRIPT_HASH}'; connect-src 'self'`;

const field = (id: string, label: string, type: string, autocomplete: string) =>
  html`<label for="${id}">${label}</label><input id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" required>`;

const BODY = html`<p>State: <strong id="state">Loading…</strong></p>
<p id="status" role="status"></p>
<p id="error" class="error" role="alert" hidden></p>
<noscript><p class="error">This page needs JavaScript to use passkeys.</p></noscript>
<section id="signed-out" hidden>
<h2>Sign in with your password</h2>
<form id="password-form" method="post">
${field('email', 'Email', 'email', 'username')}
${field('password', 'Password', 'password', 'current-password')}
${field('organization', 'Organization', 'text', 'organization')}
<button type="submit" id="password-sign-in">Sign in</button>
</form>
<form id="mfa-form" method="post" hidden>
${field('mfa-code', 'Authentication code', 'text', 'one-time-code')}
<button type="submit">Verify</button>
</form>
<h2>Sign in with a passkey</h2>
<form id="passkey-sign-in-form" method="post">
${field('passkey-organization', 'Organization', 'text', 'organization')}
<button type="submit" id="passkey-sign-in">Sign in with a passkey</button>
</form>
</section>
<section id="signed-in" hidden>
<p>Signed in as <strong id="signed-in-email"></strong></p>
<h2>Passkeys (<span id="passkey-count">0</span>)</h2>
<ul id="passkey-list"></ul>
<form id="add-passkey-form" method="post">
<label for="passkey-name">Name of the new passkey (optional)</label>
<input id="passkey-name" name="passkey-name" type="text" maxlength="100" autocomplete="off">
<button type="submit" id="add-passkey">Add a passkey</button>
</form>
<button type="button" id="sign-out" class="secondary">Sign out</button>
</section>
<script>${new SafeHtml(SCRIPT)}</script>`;

/**
 * `GET /account/passkeys`: sign in (password, or a passkey), add a passkey, see the list, sign out. Everything
 * happens through the public API from the page's script; the server renders only the static page. WebAuthn
 * needs a secure context, so the page works on https (or http://localhost) under BASE_URL.
 */
export function registerPasskeysPage(app: FastifyInstance, deps: { config: { baseUrl: string } }): void {
  void deps;
  const page = layout(TITLE, BODY).value;
  app.get('/account/passkeys', PAGE_OPTIONS, async (_request, reply) =>
    reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(page),
  );
}
