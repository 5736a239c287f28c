import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { type Cbor, cbor, SoftwareAuthenticator } from '../support/webauthn-authenticator.js';
import { accountsHarness, freshIp, shape } from './accounts-support.js';

/** The relying party comes from BASE_URL: RP ID its host name, expected origin its origin. */
const BASE = 'https://id.example.test';
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1', BASE_URL: BASE });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, db, eventsOf } = accountsHarness(() => svc);

const creationOptions = (token: string) =>
  request(api('/webauthn/credentials/options'), { method: 'POST', token, headers: { 'x-forwarded-for': freshIp() } });
const registerWith = (token: string, json: unknown) => request(api('/webauthn/credentials'), { token, json });
const list = (token: string) => request(api('/webauthn/credentials'), { token });
const remove = (token: string, id: string, json: unknown = {}) =>
  request(api(`/webauthn/credentials/${id}/remove`), { token, json });

/** A signed-up account (owner of its own organization) with one passkey from a software authenticator. */
async function withPasskey(name?: string) {
  const who = await signUp();
  const token = who.tokens.access_token;
  const authenticator = new SoftwareAuthenticator(BASE);
  const options = await creationOptions(token);
  expect(options.status, options.text).toBe(200);
  const credential = authenticator.createCredential(options.body);
  const res = await registerWith(token, { ...credential, ...(name ? { name } : {}) });
  expect(res.status, res.text).toBe(201);
  return { ...who, token, authenticator, credentialId: credential.id, passkey: res.body };
}

async function addPasskey(token: string, authenticator = new SoftwareAuthenticator(BASE)) {
  const options = await creationOptions(token);
  const res = await registerWith(token, authenticator.createCredential(options.body));
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const userHandleOf = (userId: string) => Buffer.from(userId.replace(/-/g, ''), 'hex').toString('base64url');

describe('registration (Part A 4.3)', () => {
  it('every account route needs a bearer token', async () => {
    const id = '00000000-0000-7000-8000-000000000000';
    const answers = [
      await request(api('/webauthn/credentials/options'), { method: 'POST' }),
      await request(api('/webauthn/credentials'), { json: {} }),
      await request(api('/webauthn/credentials')),
      await request(api(`/webauthn/credentials/${id}/remove`), { json: {} }),
      await request(api('/webauthn/credentials/options'), { method: 'POST', token: 'not-a-token' }),
    ];
    for (const res of answers) expect(res.status, res.text).toBe(401);
  });

  it('creation options: RP from BASE_URL, discoverable credential, UV preferred, the account as opaque handle', async () => {
    const who = await signUp();
    const res = await creationOptions(who.tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body.rp).toEqual({ name: 'svc', id: 'id.example.test' });
    expect(res.body.user).toEqual({
      id: userHandleOf(who.userId),
      name: who.account.email,
      displayName: who.account.email,
    });
    expect(res.body.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'preferred',
    });
    expect(res.body.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(res.body.timeout).toBe(300_000);
    expect(res.body.excludeCredentials).toEqual([]);
    // EdDSA, ES256, RS256 on every Node: Node 24's Web Crypto knows ML-DSA-44, which SimpleWebAuthn would otherwise
    // offer first, and a credential of it could not be verified by a node on Node 20 (docs/passkeys.md).
    expect(res.body.pubKeyCredParams).toEqual([
      { alg: -8, type: 'public-key' },
      { alg: -7, type: 'public-key' },
      { alg: -257, type: 'public-key' },
    ]);
    const [stored] = await rows<{ purpose: string; user_id: string; ttl: number }>(
      db(),
      sql`select purpose, user_id, extract(epoch from expires_at - created_at)::int as ttl
          from webauthn_challenges where challenge = ${res.body.challenge}`,
    );
    expect(stored).toEqual({ purpose: 'registration', user_id: who.userId, ttl: 300 });
  });

  it('registers a passkey (201 summary, default name, event) and excludes it from the next options', async () => {
    const { token, passkey, credentialId, tenantId, userId } = await withPasskey();
    expect(passkey).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Passkey',
      created_at: svc.clock.now().toISOString(),
      last_used_at: null,
      device_type: 'singleDevice',
      backed_up: false,
      transports: ['internal'],
    });
    const next = await creationOptions(token);
    expect(next.body.excludeCredentials).toEqual([{ id: credentialId, type: 'public-key', transports: ['internal'] }]);
    const events = await eventsOf(tenantId!, 'passkey.registered');
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ user_id: userId, credential_id: passkey.id });
    expect(events[0]!.subject_user_id).toBe(userId);
  });

  it('takes a name of 1 to 100 characters without control characters (422 otherwise)', async () => {
    const { token } = await withPasskey('Laptop');
    expect((await list(token)).body.map((p: { name: string }) => p.name)).toEqual(['Laptop']);
    for (const name of ['', '   ', 'x'.repeat(101), 'bad\u0007name', 'evil\u202Ename']) {
      const options = await creationOptions(token);
      const res = await registerWith(token, {
        ...new SoftwareAuthenticator(BASE).createCredential(options.body),
        name,
      });
      expect(res.status, name).toBe(422);
      expect(res.body.detail).toMatch(/name/);
    }
    const options = await creationOptions(token);
    const ok = await registerWith(token, {
      ...new SoftwareAuthenticator(BASE).createCredential(options.body),
      name: ` ${'é'.repeat(100)} `,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe('é'.repeat(100));
  });

  it('400 for a challenge never issued, expired (5 minutes), replayed, or issued to another account', async () => {
    const a = await signUp();
    const b = await signUp();
    const authenticator = new SoftwareAuthenticator(BASE);
    const invalid = [];

    const options = (await creationOptions(a.tokens.access_token)).body;
    invalid.push(
      await registerWith(
        a.tokens.access_token,
        authenticator.createCredential(options, { challenge: 'bm90LWlzc3VlZC1ieS10aGUtc2VydmljZS1hdC1hbGw' }),
      ),
    );

    const expiring = (await creationOptions(a.tokens.access_token)).body;
    svc.clock.advance(5 * 60_000 + 1000);
    invalid.push(await registerWith(a.tokens.access_token, authenticator.createCredential(expiring)));

    // Issued to b, answered by a.
    const forB = (await creationOptions(b.tokens.access_token)).body;
    invalid.push(await registerWith(a.tokens.access_token, authenticator.createCredential(forB)));

    const fresh = (await creationOptions(a.tokens.access_token)).body;
    const response = authenticator.createCredential(fresh);
    const first = await registerWith(a.tokens.access_token, response);
    expect(first.status).toBe(201);
    invalid.push(await registerWith(a.tokens.access_token, response));

    for (const res of invalid) {
      expect(res.status, res.text).toBe(400);
      expect(res.body.detail).toBe('Invalid, expired or replayed passkey registration');
    }
    expect((await list(a.tokens.access_token)).body).toHaveLength(1);
    expect((await list(b.tokens.access_token)).body).toHaveLength(0);
  });

  it('400 for a response from another origin or RP ID, a bad type or no user presence; a refused answer spends the challenge', async () => {
    const { tokens } = await signUp();
    const token = tokens.access_token;
    const authenticator = new SoftwareAuthenticator(BASE);
    const wrong = [
      { origin: 'https://evil.example.test' },
      { rpId: 'evil.example.test' },
      { type: 'webauthn.get' },
      { userPresent: false },
    ];
    for (const overrides of wrong) {
      const options = (await creationOptions(token)).body;
      const res = await registerWith(token, authenticator.createCredential(options, overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      // The genuine answer to the same challenge no longer works: the ceremony was spent by the refusal.
      const retry = await registerWith(token, authenticator.createCredential(options));
      expect(retry.status).toBe(400);
    }
    // Garbage that is well-formed base64url.
    const options = (await creationOptions(token)).body;
    const genuine = authenticator.createCredential(options);
    const garbage = { ...genuine, response: { ...genuine.response, attestationObject: 'AAAA' } };
    expect((await registerWith(token, garbage)).status).toBe(400);
    expect((await list(token)).body).toEqual([]);
    // A body that is not a registration response at all is a validation error.
    expect((await registerWith(token, { id: 'x' })).status).toBe(422);
  });

  it('the same authenticator credential cannot be registered twice (400)', async () => {
    const { token, authenticator, credentialId } = await withPasskey();
    const options = (await creationOptions(token)).body;
    const res = await registerWith(token, authenticator.createCredential(options, { credentialId }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/already registered/);
    expect((await list(token)).body).toHaveLength(1);
  });

  it('400 for a key of an algorithm the options did not offer, such as ML-DSA-44, on every Node', async () => {
    // On Node 24 SimpleWebAuthn would accept ML-DSA-44 by default; a node on Node 20 could not verify its assertions.
    const token = (await signUp()).tokens.access_token;
    const options = (await creationOptions(token)).body;
    const mlDsa44 = cbor(
      new Map<number, Cbor>([
        [1, 7], // kty: AKP (draft-ietf-cose-dilithium)
        [3, -48], // alg: ML-DSA-44
        [-1, randomBytes(1312)], // pub: an ML-DSA-44 public key is 1312 bytes (FIPS 204)
      ]),
    );
    const res = await registerWith(
      token,
      new SoftwareAuthenticator(BASE).createCredential(options, { publicKey: mlDsa44 }),
    );
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Invalid, expired or replayed passkey registration');
    expect((await list(token)).body).toEqual([]);
  });
});

describe('list and remove', () => {
  it('lists only the caller’s passkeys, oldest first, without key material', async () => {
    const a = await withPasskey('First');
    await addPasskey(a.token);
    const b = await withPasskey('Other');
    const mine = await list(a.token);
    expect(mine.status).toBe(200);
    expect(mine.body.map((p: { name: string }) => p.name)).toEqual(['First', 'Passkey']);
    for (const passkey of mine.body) {
      expect(Object.keys(passkey).sort()).toEqual(
        ['backed_up', 'created_at', 'device_type', 'id', 'last_used_at', 'name', 'transports'].sort(),
      );
    }
    expect((await list(b.token)).body.map((p: { name: string }) => p.name)).toEqual(['Other']);
  });

  it('remove: 400 wrong or missing password, 404 unknown and another account’s alike, then 204 with an event', async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    const password = a.account.password;

    const wrong = await remove(a.token, a.passkey.id, { password: 'not the password at all' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('Password is incorrect');
    expect((await remove(a.token, a.passkey.id)).status).toBe(400);
    expect(
      (await request(api(`/webauthn/credentials/${a.passkey.id}/remove`), { method: 'POST', token: a.token })).status,
    ).toBe(400);

    const unknown = await remove(a.token, '00000000-0000-7000-8000-000000000000', { password });
    const foreign = await remove(a.token, b.passkey.id, { password });
    const notAnId = await remove(a.token, 'not-a-uuid', { password });
    expect(unknown.status).toBe(404);
    expect(shape(foreign)).toEqual(shape(unknown));
    expect(shape(notAnId)).toEqual(shape(unknown));
    expect((await list(b.token)).body).toHaveLength(1);

    // An account with a password may remove its last passkey: it can still sign in.
    const ok = await remove(a.token, a.passkey.id, { password });
    expect(ok.status).toBe(204);
    expect((await list(a.token)).body).toEqual([]);
    const events = await eventsOf(a.tenantId!, 'passkey.removed');
    expect(events.map((e) => e.data)).toEqual([{ user_id: a.userId, credential_id: a.passkey.id }]);
    expect((await remove(a.token, a.passkey.id, { password })).status).toBe(404);
  });

  it('a passwordless account removes passkeys without a password but never its last one', async () => {
    const a = await withPasskey();
    const second = await addPasskey(a.token);
    // Passwordless: as an account provisioned by sign-in methods without a password is.
    await db().execute(sql`update users set password_hash = null where id = ${a.userId}`);

    expect((await remove(a.token, second.id)).status).toBe(204);
    const last = await remove(a.token, a.passkey.id);
    expect(last.status).toBe(400);
    expect(last.body.detail).toMatch(/last passkey/);
    expect((await list(a.token)).body.map((p: { id: string }) => p.id)).toEqual([a.passkey.id]);
  });

  it('concurrent removals cannot take a passwordless account below one passkey', async () => {
    const a = await withPasskey();
    const others = [await addPasskey(a.token), await addPasskey(a.token)];
    await db().execute(sql`update users set password_hash = null where id = ${a.userId}`);
    const ids = [a.passkey.id, ...others.map((p) => p.id)];
    const answers = await Promise.all(ids.map((id) => remove(a.token, id)));
    expect(answers.map((r) => r.status).sort()).toEqual([204, 204, 400]);
    expect((await list(a.token)).body).toHaveLength(1);
  });
});

describe('personal data (Part A 4.10)', () => {
  const contributor = () => svc.deps.personalData.contributors().find((c) => c.name === 'passkeys')!;

  it('exports summaries without key material', async () => {
    const a = await withPasskey('Phone');
    const res = await request(api('/gdpr/my-data'), { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.sections.passkeys).toEqual((await list(a.token)).body);
    expect(res.text).not.toMatch(/public_key|publicKey/);
  });

  it('erasure deletes the account’s passkeys only when no other organization holds a membership', async () => {
    const a = await withPasskey();
    const b = await signUp();
    // a is also a member of b's organization.
    await db().execute(sql`insert into memberships (id, tenant_id, user_id, role, population, status, created_at)
      values (gen_random_uuid(), ${b.tenantId}, ${a.userId}, 'member', 'workforce', 'active', now())`);
    const count = async () =>
      (
        await rows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from webauthn_credentials where user_id = ${a.userId}`,
        )
      )[0]!.n;
    await svc.deps.transactions.tenant(a.tenantId!, (tx) => contributor().erase(tx, a.tenantId!, a.userId));
    expect(await count()).toBe(1);
    await db().execute(
      sql`update memberships set status = 'removed' where tenant_id = ${b.tenantId} and user_id = ${a.userId}`,
    );
    await svc.deps.transactions.tenant(a.tenantId!, (tx) => contributor().erase(tx, a.tenantId!, a.userId));
    expect(await count()).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents every passkey route with a summary, the tag and its statuses', async () => {
    const res = await request(`${svc.url}/api/v1/openapi.json`);
    const expected: Array<[string, string, string[]]> = [
      ['post', '/api/v1/webauthn/credentials/options', ['200', '401']],
      ['post', '/api/v1/webauthn/credentials', ['201', '400', '401', '422']],
      ['get', '/api/v1/webauthn/credentials', ['200', '401']],
      ['post', '/api/v1/webauthn/credentials/{id}/remove', ['204', '400', '401', '404']],
      ['post', '/api/v1/webauthn/login/options', ['200', '429']],
      ['post', '/api/v1/webauthn/login/verify', ['200', '401', '422', '429']],
    ];
    for (const [method, path, statuses] of expected) {
      const operation = res.body.paths?.[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.tags).toEqual(['passkeys']);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses));
    }
  });
});
