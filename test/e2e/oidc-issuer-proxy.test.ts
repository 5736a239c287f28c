import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp } from './accounts-support.js';

/**
 * An OpenID issuer on another URL than BASE_URL: a proxy maps `OIDC_ISSUER/…` to the service, and clients use
 * the URLs discovery advertises, also in their DPoP proofs.
 */

const BASE_URL = 'https://id.example.test';
const ISSUER = 'https://login.example.test/idp';
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1', BASE_URL, OIDC_ISSUER: ISSUER });
});
afterAll(async () => {
  await svc?.close();
});

describe('an issuer behind a proxy', () => {
  it('takes proofs naming the token endpoint discovery advertises under OIDC_ISSUER, and only those', async () => {
    const discovery = await request(`${svc.url}/.well-known/openid-configuration`);
    expect(discovery.body.token_endpoint).toBe(`${ISSUER}/api/v1/oauth/token`);
    const owner = await accountsHarness(() => svc).signUp();
    const registered = await request(`${svc.url}/api/v1/oauth/clients`, {
      token: owner.tokens.access_token,
      json: {
        name: 'Behind a proxy',
        client_type: 'confidential',
        redirect_uris: ['https://export.example.com/callback'],
        grant_types: ['client_credentials'],
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const { client_id, client_secret } = registered.body;
    const key = await newDpopKey();
    const send = async (htu: string) =>
      request(`${svc.url}/api/v1/oauth/token`, {
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id, client_secret }).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': freshIp(),
          dpop: await key.proof('POST', htu, { now: svc.clock.now() }),
        },
      });
    const advertised = await send(discovery.body.token_endpoint);
    expect(advertised.status, advertised.text).toBe(200);
    expect(advertised.body.token_type).toBe('DPoP');
    const atBaseUrl = await send(`${BASE_URL}/api/v1/oauth/token`);
    expect([atBaseUrl.status, atBaseUrl.body.error]).toEqual([400, 'invalid_dpop_proof']);
  });
});
