import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../support/dpop.js';
import { request } from '../support/http.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp, type Pair } from './accounts-support.js';

const BASE = 'https://id.example.test';
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1', BASE_URL: BASE });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp } = accountsHarness(() => svc);
const htu = (path: string) => `${BASE}/api/v1${path}`;
const now = () => svc.clock.now();

type Key = Awaited<ReturnType<typeof newDpopKey>>;

/** A DPoP-bound sign-up: the proof on the sign-in binds the pair to `key`. */
async function boundSignUp(key: Key) {
  const proof = await key.proof('POST', htu('/auth/signup'), { now: now() });
  return signUp({}, { dpop: proof });
}

const dpopGet = async (path: string, token: string, key: Key, options: Parameters<Key['proof']>[2] = {}) =>
  request(api(path), {
    headers: {
      authorization: `DPoP ${token}`,
      dpop: await key.proof('GET', htu(path), { accessToken: token, now: now(), ...options }),
    },
  });

const dpopRefresh = async (refreshToken: string, key: Key | undefined, options: Parameters<Key['proof']>[2] = {}) =>
  request<Pair>(api('/auth/refresh'), {
    json: { refresh_token: refreshToken },
    headers: key ? { dpop: await key.proof('POST', htu('/auth/refresh'), { now: now(), ...options }) } : {},
  });

describe('DPoP-bound sessions (RFC 9449)', () => {
  it('a proof on sign-up binds the pair; the token works only with Authorization: DPoP and a fresh proof', async () => {
    const key = await newDpopKey();
    const { tokens } = await boundSignUp(key);
    expect(tokens.token_type).toBe('DPoP');
    const ok = await dpopGet('/me', tokens.access_token, key);
    expect(ok.status).toBe(200);
    expect(ok.body.role).toBe('owner');

    // As a plain bearer token: 401, saying why.
    const asBearer = await request(api('/me'), { token: tokens.access_token });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
    // DPoP scheme without a proof.
    const noProof = await request(api('/me'), { headers: { authorization: `DPoP ${tokens.access_token}` } });
    expect(noProof.status).toBe(401);
  });

  it('refuses a replayed proof, a wrong htu or htm, a stale iat, a missing ath, and a proof from another key', async () => {
    const key = await newDpopKey();
    const other = await newDpopKey();
    const { tokens } = await boundSignUp(key);
    const token = tokens.access_token;
    const proof = await key.proof('GET', htu('/me'), { accessToken: token, now: now() });
    const send = (dpop: string) => request(api('/me'), { headers: { authorization: `DPoP ${token}`, dpop } });
    expect((await send(proof)).status).toBe(200);
    const replayed = await send(proof);
    expect(replayed.status).toBe(401);
    expect(replayed.body.detail).toMatch(/replayed/);

    const refusals = [
      await key.proof('GET', htu('/me/sessions'), { accessToken: token, now: now() }),
      await key.proof('GET', `http://127.0.0.1/api/v1/me`, { accessToken: token, now: now() }),
      await key.proof('POST', htu('/me'), { accessToken: token, now: now() }),
      await key.proof('GET', htu('/me'), { accessToken: token, now: new Date(now().getTime() - 5 * 60_000) }),
      await key.proof('GET', htu('/me'), { now: now() }),
      await key.proof('GET', htu('/me'), { accessToken: `${token}x`, now: now() }),
      await other.proof('GET', htu('/me'), { accessToken: token, now: now() }),
      await key.proof('GET', htu('/me'), { accessToken: token, now: now(), header: { typ: 'JWT' } }),
    ];
    for (const [i, dpop] of refusals.entries()) {
      const res = await send(dpop);
      expect(res.status, `case ${i}`).toBe(401);
    }
    // The token itself is still good with a proper proof.
    expect((await dpopGet('/me', token, key)).status).toBe(200);
  });

  it('an unbound bearer token presented with the DPoP scheme is refused', async () => {
    const key = await newDpopKey();
    const { tokens } = await signUp();
    expect(tokens.token_type).toBe('bearer');
    expect((await dpopGet('/me', tokens.access_token, key)).status).toBe(401);
  });

  it('refresh needs a proof under the same key without ath; a refused refresh leaves the token unspent', async () => {
    const key = await newDpopKey();
    const other = await newDpopKey();
    const { tokens } = await boundSignUp(key);
    const refreshToken = tokens.refresh_token!;
    expect((await dpopRefresh(refreshToken, undefined)).status).toBe(401);
    expect((await dpopRefresh(refreshToken, other)).status).toBe(401);
    expect((await dpopRefresh(refreshToken, key, { accessToken: tokens.access_token })).status).toBe(401);
    const rotated = await dpopRefresh(refreshToken, key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token_type).toBe('DPoP');
    expect((await dpopGet('/me', rotated.body.access_token, key)).status).toBe(200);
    expect((await request(api('/me'), { token: rotated.body.access_token })).status).toBe(401);
    // The old token is now spent: presenting it again ends the session.
    expect((await dpopRefresh(refreshToken, key)).status).toBe(401);
    expect((await dpopGet('/me', rotated.body.access_token, key)).status).toBe(401);
  });

  it('login with a proof binds too; a malformed proof on sign-in is 400; the session lists as DPoP-bound', async () => {
    const key = await newDpopKey('EdDSA');
    const { account, slug } = await signUp();
    const body = { email: account.email, password: account.password, tenant_slug: slug };
    const bad = await request(api('/auth/login'), {
      json: body,
      headers: { dpop: 'not-a-proof', 'x-forwarded-for': freshIp() },
    });
    expect(bad.status).toBe(400);
    const wrongHtu = await request(api('/auth/login'), {
      json: body,
      headers: { dpop: await key.proof('POST', htu('/auth/signup'), { now: now() }), 'x-forwarded-for': freshIp() },
    });
    expect(wrongHtu.status).toBe(400);
    const login = await request<Pair>(api('/auth/login'), {
      json: body,
      headers: { dpop: await key.proof('POST', htu('/auth/login'), { now: now() }), 'x-forwarded-for': freshIp() },
    });
    expect(login.status).toBe(200);
    expect(login.body.token_type).toBe('DPoP');
    const sessions = await dpopGet('/me/sessions', login.body.access_token, key);
    expect(sessions.status).toBe(200);
    expect(sessions.body.sessions.find((s: { current: boolean }) => s.current).dpop_bound).toBe(true);
  });

  it('change-password on a bound session answers a pair bound to the same key', async () => {
    const key = await newDpopKey();
    const { tokens, account } = await boundSignUp(key);
    const res = await request<Pair>(api('/auth/change-password'), {
      json: { current_password: account.password, new_password: 'a bound new passphrase' },
      headers: {
        authorization: `DPoP ${tokens.access_token}`,
        dpop: await key.proof('POST', htu('/auth/change-password'), { accessToken: tokens.access_token, now: now() }),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    expect((await dpopGet('/me', res.body.access_token, key)).status).toBe(200);
    // Every other token is dead, even presented with a fresh, valid proof under its own key.
    expect((await dpopGet('/me', tokens.access_token, key)).status).toBe(401);
    expect((await dpopRefresh(tokens.refresh_token!, key)).status).toBe(401);
  });

  it('sign-out-all kills the bound tokens of every session, whatever proof comes with them', async () => {
    const key = await newDpopKey();
    const laptop = await newDpopKey('EdDSA');
    const { tokens, account, slug } = await boundSignUp(key);
    const second = await request<Pair>(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug },
      headers: { dpop: await laptop.proof('POST', htu('/auth/login'), { now: now() }), 'x-forwarded-for': freshIp() },
    });
    expect(second.body.token_type).toBe('DPoP');
    const out = await request(api('/auth/sign-out-all'), {
      method: 'POST',
      headers: {
        authorization: `DPoP ${tokens.access_token}`,
        dpop: await key.proof('POST', htu('/auth/sign-out-all'), { accessToken: tokens.access_token, now: now() }),
      },
    });
    expect(out.status).toBe(204);
    expect((await dpopGet('/me', tokens.access_token, key)).status).toBe(401);
    expect((await dpopGet('/me', second.body.access_token, laptop)).status).toBe(401);
    expect((await dpopRefresh(tokens.refresh_token!, key)).status).toBe(401);
    expect((await dpopRefresh(second.body.refresh_token!, laptop)).status).toBe(401);
  });

  it('a proof used on one node is refused on another when Redis is configured (shared replay cache)', async () => {
    const second = await startSecondNode(svc);
    try {
      const key = await newDpopKey();
      const { tokens } = await boundSignUp(key);
      const proof = await key.proof('GET', htu('/me'), { accessToken: tokens.access_token, now: now() });
      const headers = { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
      expect((await request(api('/me'), { headers })).status).toBe(200);
      const elsewhere = await request(`${second.url}/api/v1/me`, { headers });
      // Without Redis each node keeps its own cache (documented in docs/accounts.md).
      expect(elsewhere.status).toBe(process.env.REDIS_URL ? 401 : 200);
      expect((await request(`${second.url}/api/v1/me`, { headers })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
