/**
 * Sign-in through the service's own OpenID Provider: authorization code with PKCE (S256), the organization's
 * first-party console client (its id derives from the organization's slug, see docs/console.md), tokens in
 * this module's memory only. Only the PKCE verifier, state and nonce cross the redirect to /login, in
 * sessionStorage, and are removed at the callback: they are useless without the code and the code is spent once.
 */

export interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  idToken: string | undefined;
  /** When the access token expires, by the browser's clock (ms). */
  expiresAt: number;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint: string;
}

const PENDING_KEY = 'console.pending-sign-in';
const ORG_KEY = 'console.organization';
/** Renew this long before the access token expires. */
const RENEW_AHEAD_MS = 60_000;

let tokens: Tokens | undefined;
let organization: string | undefined;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<boolean> | undefined;
const listeners = new Set<() => void>();

export const redirectUri = () => `${location.origin}/console/callback`;
export const postLogoutRedirectUri = () => `${location.origin}/console/`;

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** The first-party console client of an organization: `cl_` + the first 22 base64url characters of SHA-256. */
export async function consoleClientId(slug: string): Promise<string> {
  return `cl_${base64url(await sha256(`svc-console:${slug}`)).slice(0, 22)}`;
}

let discovery: Promise<Discovery> | undefined;
function discover(): Promise<Discovery> {
  discovery ??= fetch('/.well-known/openid-configuration').then((r) => {
    if (!r.ok) throw new Error(`Discovery failed (${r.status})`);
    return r.json() as Promise<Discovery>;
  });
  return discovery;
}

export const currentTokens = () => tokens;

/**
 * The provider's browser session this console was signed in from (the ID token's `sid`, OIDC Front/Back-Channel
 * Logout): the console's own session is a grant under it, so ending it ends the console too.
 */
export function browserSessionId(): string | undefined {
  const payload = tokens?.idToken?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sid = (JSON.parse(json) as { sid?: unknown }).sid;
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}
export const currentOrganization = () => organization;
/** The organization last signed in to (a slug, not a credential): prefills the sign-in form. */
export const rememberedOrganization = () => localStorage.getItem(ORG_KEY) ?? '';

export function onTokensChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setTokens(next: Tokens | undefined): void {
  tokens = next;
  if (renewTimer) clearTimeout(renewTimer);
  renewTimer = undefined;
  if (next?.refreshToken) {
    const delay = Math.max(1_000, next.expiresAt - Date.now() - RENEW_AHEAD_MS);
    renewTimer = setTimeout(() => void renew(), delay);
  }
  for (const listener of listeners) listener();
}

/** Sends the browser to the authorization endpoint; returns to /console/callback. */
export async function signIn(slug: string, returnTo: string): Promise<void> {
  const clean = slug.trim().toLowerCase();
  const { authorization_endpoint } = await discover();
  const verifier = randomString();
  const state = randomString();
  const nonce = randomString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, nonce, slug: clean, returnTo }));
  localStorage.setItem(ORG_KEY, clean);
  const url = new URL(authorization_endpoint, location.origin);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: await consoleClientId(clean),
    redirect_uri: redirectUri(),
    scope: 'openid profile email',
    state,
    nonce,
    code_challenge: base64url(await sha256(verifier)),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.toString());
}

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}

async function tokenRequest(params: Record<string, string>): Promise<TokenAnswer> {
  const { token_endpoint } = await discover();
  const response = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
    credentials: 'omit',
  });
  const body = (await response.json().catch(() => ({}))) as TokenAnswer;
  if (!response.ok)
    throw new Error(body.error_description ?? body.error ?? `Token request failed (${response.status})`);
  return body;
}

function adopt(answer: TokenAnswer, previous?: Tokens): Tokens {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? previous?.refreshToken,
    idToken: answer.id_token ?? previous?.idToken,
    expiresAt: Date.now() + (answer.expires_in ?? 300) * 1000,
  };
}

/** Completes the redirect back from the provider; answers the path to show next. */
export async function completeSignIn(search: string): Promise<string> {
  const params = new URLSearchParams(search);
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw) throw new Error('No sign-in is in progress in this tab. Sign in again.');
  const pending = JSON.parse(raw) as { verifier: string; state: string; slug: string; returnTo: string };
  if (params.get('error')) throw new Error(params.get('error_description') ?? params.get('error') ?? 'Sign-in failed');
  if (params.get('state') !== pending.state)
    throw new Error('The sign-in answer does not match this tab. Sign in again.');
  const code = params.get('code');
  if (!code) throw new Error('The sign-in answer carries no code. Sign in again.');
  const answer = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri(),
    client_id: await consoleClientId(pending.slug),
    code_verifier: pending.verifier,
  });
  organization = pending.slug;
  setTokens(adopt(answer));
  return pending.returnTo.startsWith('/console') ? pending.returnTo : '/console/';
}

/**
 * Refresh-token rotation (one at a time: concurrent callers share the same attempt). Answers false when the
 * grant has ended (signed out elsewhere, revoked): the console then shows the sign-in screen.
 */
export function renew(): Promise<boolean> {
  if (renewing) return renewing;
  const held = tokens;
  if (!held?.refreshToken || !organization) return Promise.resolve(false);
  const slug = organization;
  renewing = (async () => {
    try {
      const answer = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: held.refreshToken!,
        client_id: await consoleClientId(slug),
      });
      setTokens(adopt(answer, held));
      return true;
    } catch {
      setTokens(undefined);
      return false;
    } finally {
      renewing = undefined;
    }
  })();
  return renewing;
}

/** Ends the provider session through the end-session endpoint (RP-initiated logout) and forgets the tokens. */
export async function signOut(): Promise<void> {
  const held = tokens;
  const slug = organization;
  setTokens(undefined);
  const { end_session_endpoint } = await discover();
  const url = new URL(end_session_endpoint, location.origin);
  const params = new URLSearchParams({ post_logout_redirect_uri: postLogoutRedirectUri() });
  if (held?.idToken) params.set('id_token_hint', held.idToken);
  if (slug) params.set('client_id', await consoleClientId(slug));
  url.search = params.toString();
  location.assign(url.toString());
}
