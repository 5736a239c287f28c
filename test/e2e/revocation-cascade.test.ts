import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { authorizeThroughPages, FormBrowser, organizationWithClient } from '../support/oidc-browser.js';
import { addMember } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { startWebhookReceiver, TEST_CA_FILE, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The revocation cascade (src/kernel/revocation.ts) as a relying party sees it: the causes whose back-channel
 * logout no other test covers. An account-wide end reaches a grant in another organization (the one
 * cross-organization consequence), and a member's removal reaches their grants.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
let svc: TestService;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService(
    {
      EGRESS_TEST_ROUTES: `secure.example.test=127.0.0.1:${receiver.port}`,
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
    },
    { baseUrlIsListenAddress: true },
  );
});
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
});

const issuer = () => svc.deps.config.oidcIssuer;

/** An organization whose client has a back-channel URI at `path`, and a grant of `person` to it. */
async function grantWithBackchannel(path: string, person?: { email: string; password: string }) {
  receiver.respond(path, 200);
  const org = await organizationWithClient(svc.url, {
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    backchannel_logout_uri: receiver.url(path),
  });
  const config = await oidc.discovery(new URL(issuer()), org.client.client_id, org.client.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  const signIn = async (who: { email: string; password: string }) => {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(`${svc.url}/api/v1/oauth/authorize`);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: org.client.client_id,
      redirect_uri: REDIRECT,
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })) {
      url.searchParams.set(name, value);
    }
    const { url: back } = await authorizeThroughPages(new FormBrowser(svc.url), url.toString(), who);
    return oidc.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
  };
  return { org, config, signIn, person: person ?? org.account };
}

async function logoutTokenAt(path: string, audience: string) {
  await svc.deps.openIdProvider.backchannel.sendPending();
  const [delivery] = await receiver.waitFor(1, path);
  const logoutToken = new URLSearchParams(delivery!.raw.toString('utf8')).get('logout_token')!;
  const { payload } = await jwtVerify(logoutToken, createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`)), {
    issuer: issuer(),
    audience,
    currentDate: svc.clock.now(),
  });
  return payload;
}

describe('the revocation cascade reaches relying parties', () => {
  it('a password change in another organization sends the logout of a grant made here', async () => {
    const here = await grantWithBackchannel('/backchannel-account-wide');
    const tokens = await here.signIn(here.org.account);
    const me = await request(`${svc.url}/api/v1/me`, { token: here.org.ownerToken });
    const elsewhere = await organizationWithClient(svc.url, { redirect_uris: [REDIRECT] });
    const person = { userId: me.body.user_id as string, ...here.org.account };
    const there = await addMember(svc, { tenantId: elsewhere.tenantId, slug: elsewhere.tenantSlug }, 'member', person);
    const changed = await request(`${svc.url}/api/v1/auth/change-password`, {
      token: there.token,
      json: { current_password: person.password, new_password: 'another long passphrase of mine' },
    });
    expect(changed.status).toBe(200);
    const payload = await logoutTokenAt('/backchannel-account-wide', here.org.client.client_id);
    expect(payload.sid).toBe(tokens.claims()!.sid);
    expect(payload.sub).toBe(person.userId);
  });

  it('removing a member sends the logout of their grant', async () => {
    const here = await grantWithBackchannel('/backchannel-member-removed');
    const member = await addMember(svc, { tenantId: here.org.tenantId, slug: here.org.tenantSlug }, 'member');
    const tokens = await here.signIn(member);
    const roster = await request(`${svc.url}/api/v1/members`, { token: here.org.ownerToken });
    const membership = roster.body.find((m: { user_id: string }) => m.user_id === member.userId);
    const removed = await request(`${svc.url}/api/v1/members/${membership.membership_id}`, {
      method: 'DELETE',
      token: here.org.ownerToken,
    });
    expect(removed.status).toBe(204);
    const payload = await logoutTokenAt('/backchannel-member-removed', here.org.client.client_id);
    expect(payload.sid).toBe(tokens.claims()!.sid);
    expect(payload.sub).toBe(member.userId);
  });
});
