import { sql } from 'drizzle-orm';
import { calculateJwkThumbprint, createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp, shape } from './accounts-support.js';

/**
 * The token endpoint over real HTTP, as an OAuth client would call it: form bodies with fetch (RFC 6749), tokens
 * verified with jose against the service's published JWKS, as a resource server would.
 */

const BASE = 'https://id.example.test';
let svc: TestService;
let jwks: ReturnType<typeof createRemoteJWKSet>;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1', BASE_URL: BASE });
  jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, db, eventsOf } = accountsHarness(() => svc);
const TOKEN_HTU = `${BASE}/api/v1/oauth/token`;
const UNKNOWN_CLIENT = 'cl_AAAAAAAAAAAAAAAAAAAAAA';
const FIVE_MINUTES = 5 * 60_000;

async function organization() {
  const { tokens, tenantId } = await signUp();
  return { token: tokens.access_token, tenantId: tenantId! };
}

interface Client {
  client_id: string;
  client_secret: string;
}

/** A confidential client holding the client_credentials grant, unless `overrides` say otherwise. */
async function registerClient(ownerToken: string, overrides: Record<string, unknown> = {}): Promise<Client> {
  const res = await request(api('/oauth/clients'), {
    token: ownerToken,
    json: {
      name: 'Nightly export',
      client_type: 'confidential',
      redirect_uris: ['https://export.example.com/callback'],
      grant_types: ['client_credentials'],
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function registerResource(ownerToken: string, identifier: string, enabled = true) {
  const res = await request(api('/oauth/resources'), { token: ownerToken, json: { identifier, name: 'API', enabled } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; identifier: string };
}

/** RFC 6749 section 2.3.1: id and secret are form-encoded, then joined by a colon and base64-encoded. */
const basic = (id: string, secret: string, encode = (value: string) => encodeURIComponent(value)) =>
  `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;

type Form = Record<string, string | string[]>;

/** POST /oauth/token with a form body, from a fresh address unless one is given. */
async function token(form: Form, options: { authorization?: string; headers?: Record<string, string> } = {}) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return request(api('/oauth/token'), {
    body: body.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': freshIp(),
      ...(options.authorization ? { authorization: options.authorization } : {}),
      ...options.headers,
    },
  });
}

const withBasic = (client: Client, form: Form = {}, headers: Record<string, string> = {}) =>
  token(
    { grant_type: 'client_credentials', ...form },
    { authorization: basic(client.client_id, client.client_secret), headers },
  );
const withPost = (client: Client, form: Form = {}, headers: Record<string, string> = {}) =>
  token(
    { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, ...form },
    { headers },
  );

const verify = (accessToken: string, audience = 'svc-services') =>
  jwtVerify(accessToken, jwks, { issuer: 'svc-auth', audience, typ: 'at+jwt', currentDate: svc.clock.now() });

const oauthError = (res: { status: number; body: any; headers: Headers }, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
  expect(res.headers.get('cache-control')).toBe('no-store');
};

/** A failed authentication is recorded after its answer: the events once the node's work after answers is done. */
async function afterItsWork<T>(read: () => Promise<T[]>): Promise<T[]> {
  await svc.deps.afterAnswer.drain();
  return read();
}

describe('client authentication', () => {
  it('issues a client token with HTTP Basic: no-store, no id_token or refresh token, claims per Part A 2.11', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const res = await withBasic(client);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'openid profile email',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect([...res.headers.keys()].some((name) => /ratelimit|retry-after|www-authenticate/i.test(name))).toBe(false);

    const { payload, protectedHeader } = await verify(res.body.access_token);
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: 'svc-auth',
      aud: 'svc-services',
      sub: client.client_id,
      client_id: client.client_id,
      tid: org.tenantId,
      scope: 'openid profile email',
      act: 'client',
    });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload).not.toHaveProperty('cnf');
    expect(payload).not.toHaveProperty('sid');
  });

  it('issues a token with the client_id and client_secret form fields', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const res = await withPost(client, { scope: 'email' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'email' });
    expect((await verify(res.body.access_token)).payload).toMatchObject({ sub: client.client_id, scope: 'email' });
  });

  it('decodes HTTP Basic id and secret as form-encoded (RFC 6749 section 2.3.1); a client_id field must agree', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    // Every character percent-encoded, even those that need not be: the server must decode, not compare raw.
    const everyChar = (value: string) =>
      [...value].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const encoded = await token(
      { grant_type: 'client_credentials' },
      { authorization: basic(client.client_id, client.client_secret, everyChar) },
    );
    expect(encoded.status, encoded.text).toBe(200);
    const sameId = await token(
      { grant_type: 'client_credentials', client_id: client.client_id },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    expect(sameId.status, sameId.text).toBe(200);
    const otherId = await token(
      { grant_type: 'client_credentials', client_id: UNKNOWN_CLIENT },
      { authorization: basic(client.client_id, client.client_secret) },
    );
    oauthError(otherId, 400, 'invalid_request');
    for (const authorization of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      oauthError(await token({ grant_type: 'client_credentials' }, { authorization }), 400, 'invalid_request');
    }
  });

  it('answers an unknown client and a wrong secret identically: 401 invalid_client with a Basic challenge', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const wrong = { ...client, client_secret: `${client.client_secret.slice(0, -1)}x` };
    const unknown = { client_id: UNKNOWN_CLIENT, client_secret: client.client_secret };
    const malformed = { client_id: 'nobody', client_secret: client.client_secret };
    for (const send of [withBasic, withPost]) {
      const answers = [await send(wrong), await send(unknown), await send(malformed)];
      for (const res of answers) {
        oauthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toBe('Basic realm="svc"');
        expect(shape(res)).toEqual(shape(answers[0]!));
      }
    }
    // A confidential client that sends no secret at all fails the same way.
    const noSecret = await token({ grant_type: 'client_credentials', client_id: client.client_id });
    expect(shape(noSecret)).toEqual(shape(await withPost(wrong)));
    // No client named at all.
    oauthError(await token({ grant_type: 'client_credentials' }), 401, 'invalid_client');
  });

  it('refuses HTTP Basic and a client_secret field together (400 invalid_request)', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const res = await withBasic(client, { client_secret: client.client_secret });
    oauthError(res, 400, 'invalid_request');
    expect(res.body.error_description).toMatch(/not both/);
  });

  it('refuses a public client the client_credentials grant, and a secret a public client sends', async () => {
    const org = await organization();
    const res = await request(api('/oauth/clients'), {
      token: org.token,
      json: { name: 'SPA', client_type: 'public', redirect_uris: ['https://spa.example.com/cb'] },
    });
    expect(res.status).toBe(201);
    const publicId = res.body.client_id as string;
    // Public clients send no secret (they rely on PKCE): authenticated by id, but refused this grant.
    const noSecret = await token({ grant_type: 'client_credentials', client_id: publicId });
    oauthError(noSecret, 400, 'unauthorized_client');
    expect(noSecret.body.error_description).toMatch(/confidential/);
    // A public client has no secret to match: any secret fails authentication.
    oauthError(await withPost({ client_id: publicId, client_secret: 'anything' }), 401, 'invalid_client');
    oauthError(await withBasic({ client_id: publicId, client_secret: 'anything' }), 401, 'invalid_client');
  });

  it('refuses a client not registered for client_credentials (unauthorized_client)', async () => {
    const org = await organization();
    const client = await registerClient(org.token, { grant_types: ['authorization_code', 'refresh_token'] });
    const res = await withBasic(client);
    oauthError(res, 400, 'unauthorized_client');
    expect(res.body.error_description).toMatch(/not registered for the client_credentials grant/);
  });

  it('stops authenticating a rotated secret and a deleted client at once', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    expect((await withBasic(client)).status).toBe(200);
    const rotated = await request(api(`/oauth/clients/${client.client_id}/rotate-secret`), {
      method: 'POST',
      token: org.token,
    });
    expect(rotated.status).toBe(200);
    oauthError(await withBasic(client), 401, 'invalid_client');
    const fresh = { client_id: client.client_id, client_secret: rotated.body.client_secret };
    expect((await withBasic(fresh)).status).toBe(200);
    const deleted = await request(api(`/oauth/clients/${client.client_id}`), { method: 'DELETE', token: org.token });
    expect(deleted.status).toBe(204);
    oauthError(await withBasic(fresh), 401, 'invalid_client');
  });

  it("refuses a quarantined organization's client after it authenticated (unauthorized_client)", async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    await db().execute(sql`update tenants set quarantined = true where id = ${org.tenantId}`);
    const res = await withBasic(client);
    oauthError(res, 400, 'unauthorized_client');
    expect(res.body.error_description).toMatch(/awaiting approval/);
    // A guesser still learns nothing: a wrong secret is the ordinary 401.
    oauthError(await withBasic({ ...client, client_secret: 'wrong' }), 401, 'invalid_client');
  });
});

describe('request checks', () => {
  it('takes forms only: a JSON body, malformed JSON, text or no body are 400 invalid_request', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const form = { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret };
    const attempts = [
      request(api('/oauth/token'), { json: form, headers: { 'x-forwarded-for': freshIp() } }),
      request(api('/oauth/token'), { body: '{"grant_type":', headers: { 'x-forwarded-for': freshIp() } }),
      request(api('/oauth/token'), {
        body: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': freshIp() },
      }),
      request(api('/oauth/token'), { method: 'POST', headers: { 'x-forwarded-for': freshIp() } }),
    ];
    for (const res of await Promise.all(attempts)) {
      oauthError(res, 400, 'invalid_request');
      expect(res.body.error_description).toMatch(/x-www-form-urlencoded/);
    }
    // The same parameters as a form succeed.
    expect((await token(form)).status).toBe(200);
  });

  it('refuses a body over 1 MB at the edge (413), before the endpoint runs', async () => {
    const res = await token({ grant_type: 'client_credentials', padding: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body exceeds 1 MB' });
  });

  it('answers unsupported_grant_type for never-implemented and unknown grants; invalid_request without one', async () => {
    const org = await organization();
    const client = await registerClient(org.token, { grant_types: ['authorization_code', 'refresh_token'] });
    // Part A 4.14: implicit and ROPC are never implemented; device and others are out of scope.
    for (const grantType of ['password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:x']) {
      const res = await withBasic(client, { grant_type: grantType, code: 'abc', refresh_token: 'abc' });
      oauthError(res, 400, 'unsupported_grant_type');
      expect(res.body.error_description).not.toContain('urn:x');
    }
    oauthError(
      await token({}, { authorization: basic(client.client_id, client.client_secret) }),
      400,
      'invalid_request',
    );
    // An empty value counts as left out (RFC 6749 section 3.2).
    oauthError(await withBasic(client, { grant_type: '' }), 400, 'invalid_request');
  });

  it('refuses a parameter sent twice (RFC 6749 section 3.2)', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const res = await withBasic(client, { scope: ['email', 'openid'] });
    oauthError(res, 400, 'invalid_request');
    expect(res.body.error_description).toMatch(/scope is sent more than once/);
  });
});

describe('scope and resource', () => {
  it('caps scopes to the registration: absent grants all registered, none of them is invalid_scope', async () => {
    const org = await organization();
    const client = await registerClient(org.token, { scopes: ['openid', 'email'] });
    expect((await withBasic(client)).body.scope).toBe('openid email');
    expect((await withBasic(client, { scope: 'email' })).body.scope).toBe('email');
    expect((await withBasic(client, { scope: 'email  email openid' })).body.scope).toBe('email openid');
    // Part A 4.14 "capped to the client's registered set": the intersection is granted and named in the answer.
    const capped = await withBasic(client, { scope: 'openid email profile' });
    expect(capped.status).toBe(200);
    expect(capped.body.scope).toBe('openid email');
    expect((await verify(capped.body.access_token)).payload.scope).toBe('openid email');
    expect((await withBasic(client, { scope: 'email profile admin' })).body.scope).toBe('email');
    for (const scope of ['profile', 'profile admin', 'admin', 'tenant:manage']) {
      const res = await withBasic(client, { scope });
      oauthError(res, 400, 'invalid_scope');
    }
  });

  it('mints for a registered resource: aud is its identifier, and the token is not accepted as a platform token', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const resource = await registerResource(org.token, 'https://billing.example.com/api');
    const res = await withBasic(client, { resource: resource.identifier, scope: 'openid' });
    expect(res.status, res.text).toBe(200);
    const { payload } = await verify(res.body.access_token, resource.identifier);
    expect(payload.aud).toBe(resource.identifier);
    await expect(verify(res.body.access_token)).rejects.toThrow();
  });

  it('refuses an unregistered, disabled, or another organization’s resource, and several at once (invalid_target)', async () => {
    const org = await organization();
    const other = await organization();
    const client = await registerClient(org.token);
    const disabled = await registerResource(org.token, 'https://disabled.example.com/api', false);
    const enabled = await registerResource(org.token, 'https://enabled.example.com/api');
    const elsewhere = await registerResource(other.token, 'https://theirs.example.com/api');
    for (const resource of [
      'https://unknown.example.com/api',
      disabled.identifier,
      elsewhere.identifier,
      `${enabled.identifier}/`,
      [enabled.identifier, enabled.identifier],
      [enabled.identifier, disabled.identifier],
    ]) {
      oauthError(await withBasic(client, { resource }), 400, 'invalid_target');
    }
    expect((await withBasic(client, { resource: enabled.identifier })).status).toBe(200);
  });
});

describe('DPoP', () => {
  it('binds the token to the proof key: token_type DPoP and cnf.jkt the key thumbprint', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const key = await newDpopKey();
    const res = await withBasic(client, {}, { dpop: await key.proof('POST', TOKEN_HTU, { now: svc.clock.now() }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    const { payload } = await verify(res.body.access_token);
    expect((payload as JWTPayload & { cnf?: { jkt: string } }).cnf).toEqual({
      jkt: await calculateJwkThumbprint(key.publicJwk, 'sha256'),
    });
  });

  it('refuses a broken proof with 400 invalid_dpop_proof: wrong htm or htu, stale, replayed, not a JWT', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const key = await newDpopKey();
    const now = () => svc.clock.now();
    const good = await key.proof('POST', TOKEN_HTU, { now: now() });
    expect((await withBasic(client, {}, { dpop: good })).status).toBe(200);
    const broken = [
      good, // replayed
      await key.proof('GET', TOKEN_HTU, { now: now() }),
      await key.proof('POST', `${BASE}/api/v1/oauth/other`, { now: now() }),
      await key.proof('POST', TOKEN_HTU, { now: new Date(now().getTime() - FIVE_MINUTES) }),
      await key.proof('POST', TOKEN_HTU, { now: now(), header: { typ: 'JWT' } }),
      'not-a-proof',
    ];
    for (const dpop of broken) {
      const res = await withBasic(client, {}, { dpop });
      oauthError(res, 400, 'invalid_dpop_proof');
    }
  });
});

describe('the issued token', () => {
  it('is refused at GET /me (401): a client token is no person’s token', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const res = await withBasic(client);
    expect(res.status).toBe(200);
    const me = await request(api('/me'), { token: res.body.access_token });
    expect(me.status).toBe(401);
    expect(decodeJwt(res.body.access_token).act).toBe('client');
  });

  it('records oauth.token_issued and oauth.client_authentication_failed, never the token or the secret', async () => {
    const org = await organization();
    const client = await registerClient(org.token, { scopes: ['email'] });
    const resource = await registerResource(org.token, 'urn:example:reports');
    const issued = await withBasic(client, { resource: resource.identifier });
    expect(issued.status).toBe(200);
    const [event] = await eventsOf(org.tenantId, 'oauth.token_issued');
    expect(event).toMatchObject({
      actor_type: 'service',
      data: {
        client_id: client.client_id,
        grant_type: 'client_credentials',
        scope: 'email',
        resource: 'urn:example:reports',
        token_type: 'Bearer',
        auth_method: 'client_secret_basic',
      },
    });
    const wrongSecret = 'definitely-not-the-secret';
    oauthError(await withPost({ ...client, client_secret: wrongSecret }), 401, 'invalid_client');
    const failures = await afterItsWork(() => eventsOf(org.tenantId, 'oauth.client_authentication_failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      actor_type: 'service',
      data: { client_id: client.client_id, auth_method: 'client_secret_post', reason: 'secret_mismatch' },
    });
    const trail = await rows(db(), sql`select data from events where tenant_id = ${org.tenantId}`);
    const audit = await rows(db(), sql`select data from audit_log where tenant_id = ${org.tenantId}`);
    const outbox = await rows(db(), sql`select payload from webhook_outbox where tenant_id = ${org.tenantId}`);
    const stored = JSON.stringify([trail, audit, outbox]);
    expect(stored).not.toContain(issued.body.access_token);
    expect(stored).not.toContain(issued.body.access_token.split('.')[2]);
    expect(stored).not.toContain(client.client_secret);
    expect(stored).not.toContain(wrongSecret);
    expect(audit.length).toBeGreaterThan(0);
  });
});

describe('throttles', () => {
  const expectThrottled = (res: { status: number; body: any; headers: Headers }, limit: number) => {
    oauthError(res, 429, 'temporarily_unavailable');
    expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(Number(res.headers.get('ratelimit-reset'))).toBe(retryAfter);
  };

  it('refuses a client id from an address after 10 failed authentications, before verifying even the right secret', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const wrong = { ...client, client_secret: 'wrong-secret' };
    const attacker = { 'x-forwarded-for': freshIp() };
    for (let i = 0; i < 10; i++) oauthError(await withPost(wrong, {}, attacker), 401, 'invalid_client');
    const right = await withBasic(client, {}, attacker);
    expectThrottled(right, 10);
    expect(right.body.error_description).toMatch(/failed client authentications/);
    expectThrottled(await withPost(wrong, {}, attacker), 10);
    // Refused before verification: the throttled attempts were not verified, so none was recorded as a failure.
    await svc.deps.afterAnswer.drain();
    expect(await eventsOf(org.tenantId, 'oauth.client_authentication_failed')).toHaveLength(10);
    // The budget is the client id's from that address: the client's own servers, elsewhere, are not locked out
    // (client ids are public), and another client from the same address is untouched.
    expect((await withBasic(client)).status).toBe(200);
    expect((await withBasic(await registerClient(org.token), {}, attacker)).status).toBe(200);
    // The next window lets the address in again.
    svc.clock.advance(FIVE_MINUTES);
    expect((await withBasic(client, {}, attacker)).status).toBe(200);
  });

  it('does not let anyone lock a public client out by sending it bogus secrets', async () => {
    const org = await organization();
    const created = await request(api('/oauth/clients'), {
      token: org.token,
      json: { name: 'SPA', client_type: 'public', redirect_uris: ['https://spa.example.com/cb'] },
    });
    expect(created.status).toBe(201);
    const publicId = created.body.client_id as string;
    const attacker = { 'x-forwarded-for': freshIp() };
    for (let i = 0; i < 10; i++) {
      oauthError(await withPost({ client_id: publicId, client_secret: 'bogus' }, {}, attacker), 401, 'invalid_client');
    }
    expectThrottled(await token({ grant_type: 'client_credentials', client_id: publicId }, { headers: attacker }), 10);
    // From another address the client is identified as ever (and refused this grant for what it is, not locked).
    const elsewhere = await token({ grant_type: 'client_credentials', client_id: publicId });
    oauthError(elsewhere, 400, 'unauthorized_client');
  });

  it('once a failure is counted, spends the budget before verification: a concurrent burst gets 10 answers of 401 in all', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const attacker = { 'x-forwarded-for': freshIp() };
    oauthError(await withPost({ ...client, client_secret: 'wrong-secret' }, {}, attacker), 401, 'invalid_client');
    const burst = await Promise.all(
      Array.from({ length: 24 }, () => withPost({ ...client, client_secret: 'wrong-secret' }, {}, attacker)),
    );
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(9);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    for (const res of burst.filter((one) => one.status === 429)) expectThrottled(res, 10);
    expect(await afterItsWork(() => eventsOf(org.tenantId, 'oauth.client_authentication_failed'))).toHaveLength(10);
    expectThrottled(await withBasic(client, {}, attacker), 10);
  });

  it('verifies a busy client first while no failure is counted: 30 concurrent requests from one server all succeed', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const server = { 'x-forwarded-for': freshIp() };
    const burst = await Promise.all(Array.from({ length: 30 }, () => withBasic(client, {}, server)));
    expect(burst.map((res) => res.status)).toEqual(Array(30).fill(200));
  });

  it('does not restore the failure budget when the client authenticates between failures', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const wrong = { ...client, client_secret: 'wrong-secret' };
    const ip = { 'x-forwarded-for': freshIp() };
    for (let i = 0; i < 9; i++) oauthError(await withPost(wrong, {}, ip), 401, 'invalid_client');
    // The right secret from the same address: served, and it gives back only its own unit.
    expect((await withBasic(client, {}, ip)).status).toBe(200);
    oauthError(await withPost(wrong, {}, ip), 401, 'invalid_client');
    // Ten failures in the window, whatever succeeded between them.
    expectThrottled(await withPost(wrong, {}, ip), 10);
    expectThrottled(await withBasic(client, {}, ip), 10);
  });

  it('refuses an address after 50 failed authentications, whichever client ids it named', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    const ip = freshIp();
    for (let i = 0; i < 50; i++) {
      const unknown = `cl_${String(i).padStart(22, 'B')}`;
      const res = await withPost({ client_id: unknown, client_secret: 'x' }, {}, { 'x-forwarded-for': ip });
      oauthError(res, 401, 'invalid_client');
    }
    expectThrottled(await withBasic(client, {}, { 'x-forwarded-for': ip }), 50);
    expect((await withBasic(client)).status).toBe(200);
  });

  it('holds a free organization’s client to 60 requests per 5-minute window; the next window resets it', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    for (let i = 0; i < 60; i++) {
      const res = await withBasic(client);
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
    }
    const over = await withBasic(client);
    expectThrottled(over, 60);
    expect(over.body.error_description).toMatch(/allowance/);
    svc.clock.advance(FIVE_MINUTES);
    expect((await withBasic(client)).status).toBe(200);
  });

  it('only the authenticated client spends its allowance: a stranger with its id and a wrong secret cannot', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    // 40 wrong secrets from 8 addresses (under each address's failure budgets).
    for (let a = 0; a < 8; a++) {
      const headers = { 'x-forwarded-for': freshIp() };
      for (let i = 0; i < 5; i++) {
        oauthError(await withBasic({ ...client, client_secret: 'wrong' }, {}, headers), 401, 'invalid_client');
      }
    }
    for (let i = 0; i < 60; i++) expect((await withBasic(client)).status).toBe(200);
    expectThrottled(await withBasic(client), 60);
  });

  it('holds a client to the allowance an operator negotiated for its organization, over its plan', async () => {
    const org = await organization();
    const client = await registerClient(org.token);
    await changeDirectly(
      svc,
      sql`insert into operator_settings (tenant_id, key, value, updated_at)
          values (${org.tenantId}, 'oauth.client_requests_per_5min', '3'::jsonb, now())`,
    );
    for (let i = 0; i < 3; i++) expect((await withBasic(client)).status).toBe(200);
    expectThrottled(await withBasic(client), 3);
    // A malformed value never reads as "no cap". (Changed in SQL: every node's client cache hears of it.)
    await changeDirectly(
      svc,
      sql`update operator_settings set value = '"lots"'::jsonb
          where tenant_id = ${org.tenantId} and key = 'oauth.client_requests_per_5min'`,
    );
    const refused = await withBasic(client);
    expect(refused.status).toBe(503);
    // Back to 0: the plan's allowance again (60 on free).
    await changeDirectly(
      svc,
      sql`update operator_settings set value = '0'::jsonb
          where tenant_id = ${org.tenantId} and key = 'oauth.client_requests_per_5min'`,
    );
    expect((await withBasic(client)).status).toBe(200);
  });

  it('gives a pro organization’s client 600 per window', async () => {
    const org = await organization();
    await db().execute(sql`update tenants set plan = 'pro' where id = ${org.tenantId}`);
    const client = await registerClient(org.token);
    for (let i = 0; i < 61; i++) expect((await withBasic(client)).status).toBe(200);
  });

  it('applies a per-address floor of 300 unauthenticated token requests per 5 minutes', async () => {
    const ip = freshIp();
    const headers = { 'x-forwarded-for': ip };
    for (let i = 0; i < 300; i++) {
      const res = await token({ grant_type: 'password' }, { headers });
      expect(res.status).toBe(400);
    }
    expectThrottled(await token({ grant_type: 'password' }, { headers }), 300);
    const org = await organization();
    const client = await registerClient(org.token);
    expectThrottled(await withBasic(client, {}, headers), 300);
    expect((await withBasic(client)).status).toBe(200);
    svc.clock.advance(FIVE_MINUTES);
    expect((await withBasic(client, {}, headers)).status).toBe(200);
  });

  it('does not count authenticated requests against the floor: an enterprise client passes 300 from one server', async () => {
    const org = await organization();
    await db().execute(sql`update tenants set plan = 'enterprise' where id = ${org.tenantId}`);
    const client = await registerClient(org.token);
    const server = { 'x-forwarded-for': freshIp() };
    const authorization = basic(client.client_id, client.client_secret);
    const url = api('/oauth/token');
    for (let i = 0; i < 310; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization, ...server },
        body: 'grant_type=client_credentials',
      });
      await res.arrayBuffer();
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    // Failures from the same address still count: the floor is for unauthenticated traffic.
    oauthError(await withPost({ ...client, client_secret: 'wrong-secret' }, {}, server), 401, 'invalid_client');
  });
});
