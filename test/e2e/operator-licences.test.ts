import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rows } from '../../src/kernel/db/index.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// Licences and distribution credentials over HTTP (issue 27 items 1, 5, 6; Part B 2.9, 3, 4.10, 7): the signed
// bundle once, verified offline with the public key alone; 503 without a signing key; revocation once; the
// `zdc_…` credential once with only its SHA-256 stored; every refusal the spec names.

const DAY = 86_400_000;
let svc: TestService;
let keyDir: string;
let publicPem: string;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;

beforeAll(async () => {
  keyDir = mkdtempSync(join(tmpdir(), 'licence-key-'));
  const pair = generateKeyPairSync('ed25519');
  writeFileSync(join(keyDir, 'licence.pem'), pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  publicPem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  svc = await startService({ LICENCE_SIGNING_KEY_FILE: join(keyDir, 'licence.pem') });
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
  rmSync(keyDir, { recursive: true, force: true });
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const issueLicence = (token: string, json: Record<string, unknown>) =>
  request(api('/operator/licences'), { token, json });
const licenceInput = (extra: Record<string, unknown> = {}) => ({
  licensee: 'Example Corp',
  install_id: 'install-7f3a',
  plan_code: 'pro',
  term_days: 365,
  ...extra,
});
const issueCredential = (json: Record<string, unknown>) =>
  request(api('/operator/distribution-credentials'), { token: operator.token, json });

describe('licences', () => {
  it('returns the signed bundle once, verifiable offline with the published public key', async () => {
    const res = await issueLicence(operator.token, {
      ...licenceInput({ maintenance_days: 90, features_extra: ['scim'], caps: { seats: 120 } }),
      tenant_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const issuedAt = svc.clock.now().getTime();
    expect(res.body).toMatchObject({
      licensee: 'Example Corp',
      install_id: 'install-7f3a',
      plan_code: 'pro',
      term_days: 365,
      maintenance_days: 90,
      features_extra: ['scim'],
      caps: { seats: 120 },
      tenant_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      status: 'active',
      revoked_at: null,
    });
    expect(Date.parse(res.body.maintenance_expires_at)).toBe(issuedAt + 90 * DAY);
    expect(Date.parse(res.body.expires_at)).toBe(issuedAt + 365 * DAY);

    const key = await importSPKI(publicPem, 'EdDSA');
    const { payload, protectedHeader } = await jwtVerify(res.body.licence_jwt, key, {
      issuer: svc.deps.config.baseUrl,
      subject: 'install-7f3a',
      typ: 'licence+jwt',
      currentDate: svc.clock.now(),
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({
      jti: res.body.id,
      licensee: 'Example Corp',
      install_id: 'install-7f3a',
      plan_code: 'pro',
      features_extra: ['scim'],
      tenant_id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      maintenance_expires_at: Math.floor((issuedAt + 90 * DAY) / 1000),
    });
    expect(payload.features).toEqual(expect.arrayContaining(['scim', 'social_login', 'api_keys']));
    expect((payload.caps as Record<string, unknown>).seats).toBe(120);
    expect((payload.caps as Record<string, unknown>).mau).toBe(50_000);
    expect(payload.exp).toBe(Math.floor((issuedAt + 365 * DAY) / 1000));

    // Another key does not verify it: the bundle is bound to the published key.
    const other = generateKeyPairSync('ed25519').publicKey;
    await expect(jwtVerify(res.body.licence_jwt, other)).rejects.toThrow();

    // Listed as a lifecycle record, never with the bundle; the maintenance term defaults to the licence term.
    const plain = await issueLicence(operator.token, licenceInput({ licensee: 'Plain Ltd' }));
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.maintenance_days).toBeNull();
    expect(plain.body.maintenance_expires_at).toBe(plain.body.expires_at);
    const listed = await request(api('/operator/licences'), { token: operator.token });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('licence_jwt');
    expect(listed.text).not.toContain(res.body.licence_jwt.split('.')[2]);
    expect(listed.body.map((licence: { id: string }) => licence.id)).toEqual(
      expect.arrayContaining([res.body.id, plain.body.id]),
    );
    expect(decodeProtectedHeader(res.body.licence_jwt).kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses an unknown plan code, bad terms and unknown fields, and records nothing', async () => {
    const before = await request(api('/operator/licences'), { token: operator.token });
    for (const [input, detail] of [
      [licenceInput({ plan_code: 'gold' }), /plan_code: unknown plan_code "gold"/],
      [licenceInput({ term_days: 0 }), /term_days/],
      [licenceInput({ maintenance_days: 3651 }), /maintenance_days/],
      [licenceInput({ caps: { galaxies: 1 } }), /caps\.galaxies: is not a known field/],
      [licenceInput({ features_extra: ['Not A Code'] }), /features_extra/],
      [{ ...licenceInput(), bundle: 'x' }, /bundle: is not a known field/],
    ] as const) {
      const res = await issueLicence(operator.token, input);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
    const after = await request(api('/operator/licences'), { token: operator.token });
    expect(after.body).toHaveLength(before.body.length);
  });

  it('revokes once: 409 the second time, 404 for an unknown licence', async () => {
    const issued = await issueLicence(operator.token, licenceInput({ licensee: 'Revoked Inc' }));
    const revoke = () =>
      request(api(`/operator/licences/${issued.body.id}/revoke`), { token: operator.token, json: {} });
    const first = await revoke();
    expect(first.status, first.text).toBe(200);
    expect(first.body.status).toBe('revoked');
    const second = await revoke();
    expect(second.status, second.text).toBe(409);
    const unknown = await request(api('/operator/licences/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/revoke'), {
      token: operator.token,
      json: {},
    });
    expect(unknown.status).toBe(404);
  });

  it('audits issuance and revocation in the platform-operator organization', async () => {
    const found = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from audit_log where tenant_id = ${operator.tenantId} and action like 'licence.%'`,
    );
    expect(found.map((row) => row.action)).toEqual(expect.arrayContaining(['licence.issued', 'licence.revoked']));
  });
});

describe('distribution credentials', () => {
  it('answers zdc_… once, stores only its SHA-256, and lists it without the secret', async () => {
    const licence = await issueLicence(operator.token, licenceInput({ licensee: 'Creds GmbH' }));
    const created = await issueCredential({ licence_pk: licence.body.id, label: 'ci mirror' });
    expect(created.status, created.text).toBe(201);
    const credential = created.body.credential as string;
    expect(credential).toMatch(/^zdc_[A-Za-z0-9_-]{43}$/);
    const issuedAt = svc.clock.now().getTime();
    expect(Date.parse(created.body.expires_at)).toBe(issuedAt + 365 * DAY);
    expect(created.body).toMatchObject({ licence_pk: licence.body.id, label: 'ci mirror', status: 'active' });
    expect(credential.startsWith(created.body.public_prefix)).toBe(true);

    const stored = await rows<Record<string, unknown>>(
      svc.deps.database.db,
      sql`select * from distribution_credentials where id = ${created.body.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(credential);
    const { createHash } = await import('node:crypto');
    expect(stored[0]!.secret_hash).toBe(createHash('sha256').update(credential).digest('hex'));

    const listed = await request(api('/operator/distribution-credentials'), { token: operator.token });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(credential);
    const row = listed.body.find((entry: { id: string }) => entry.id === created.body.id);
    expect(row).toEqual({
      id: created.body.id,
      licence_pk: licence.body.id,
      label: 'ci mirror',
      public_prefix: created.body.public_prefix,
      status: 'active',
      created_at: created.body.created_at,
      expires_at: created.body.expires_at,
      revoked_at: null,
      last_used_at: null,
    });

    const short = await issueCredential({ licence_pk: licence.body.id, label: 'short', expires_days: 1 });
    expect(Date.parse(short.body.expires_at)).toBe(issuedAt + DAY);
    const longest = await issueCredential({ licence_pk: licence.body.id, label: 'long', expires_days: 1830 });
    expect(longest.status).toBe(201);
  });

  it('refuses an expiry out of 1-1830, an unknown licence (404) and a revoked licence (409)', async () => {
    const licence = await issueLicence(operator.token, licenceInput({ licensee: 'Bounds SA' }));
    for (const expires_days of [0, 1831, 1.5]) {
      const res = await issueCredential({ licence_pk: licence.body.id, label: 'x', expires_days });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toMatch(/expires_days/);
    }
    const unknown = await issueCredential({ licence_pk: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', label: 'x' });
    expect(unknown.status, unknown.text).toBe(404);
    await request(api(`/operator/licences/${licence.body.id}/revoke`), { token: operator.token, json: {} });
    const revoked = await issueCredential({ licence_pk: licence.body.id, label: 'x' });
    expect(revoked.status, revoked.text).toBe(409);
    const listed = await request(api('/operator/distribution-credentials'), { token: operator.token });
    expect(listed.body.some((entry: { licence_pk: string }) => entry.licence_pk === licence.body.id)).toBe(false);
  });

  it('revokes once: 409 the second time, 404 for an unknown credential', async () => {
    const licence = await issueLicence(operator.token, licenceInput({ licensee: 'Revoke Creds' }));
    const created = await issueCredential({ licence_pk: licence.body.id, label: 'to revoke' });
    const revoke = () =>
      request(api(`/operator/distribution-credentials/${created.body.id}/revoke`), { token: operator.token, json: {} });
    const first = await revoke();
    expect(first.status, first.text).toBe(200);
    expect(first.body.status).toBe('revoked');
    expect(first.body.revoked_at).not.toBeNull();
    expect((await revoke()).status).toBe(409);
    const unknown = await request(
      api('/operator/distribution-credentials/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/revoke'),
      { token: operator.token, json: {} },
    );
    expect(unknown.status).toBe(404);
  });

  it('answers 503 to a live credential while no release store is configured (neither RELEASE_STORE nor DATA_DIR)', async () => {
    const licence = await issueLicence(operator.token, licenceInput({ licensee: 'No Store' }));
    const created = await issueCredential({ licence_pk: licence.body.id, label: 'no store' });
    const res = await request(api('/distribution/releases/v1.0.0'), { token: created.body.credential });
    expect(res.status, res.text).toBe(503);
    expect(res.body.detail).toMatch(/RELEASE_STORE/);
  });

  it('confines every route to operators of the platform organization', async () => {
    const owner = await signUpOwner(svc.url, 'elsewhere');
    for (const [path, json] of [
      ['/operator/licences', undefined],
      ['/operator/licences', licenceInput()],
      ['/operator/distribution-credentials', undefined],
      ['/operator/distribution-credentials', { licence_pk: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', label: 'x' }],
    ] as const) {
      const res = await request(api(path), { token: owner.token, ...(json ? { json } : {}) });
      expect(res.status, `${path} ${res.text}`).toBe(403);
      expect(res.body.detail).toMatch(/platform-operator organization/);
    }
    const anonymous = await request(api('/operator/licences'));
    expect(anonymous.status).toBe(401);
  });
});

describe('races', () => {
  it('revokes a licence and a credential exactly once under concurrent requests', async () => {
    const licence = await issueLicence(operator.token, licenceInput({ licensee: 'Race Ltd' }));
    const created = await issueCredential({ licence_pk: licence.body.id, label: 'race' });
    const statuses = async (path: string) =>
      (await Promise.all(Array.from({ length: 5 }, () => request(api(path), { token: operator.token, json: {} }))))
        .map((res) => res.status)
        .sort();
    expect(await statuses(`/operator/distribution-credentials/${created.body.id}/revoke`)).toEqual([
      200, 409, 409, 409, 409,
    ]);
    expect(await statuses(`/operator/licences/${licence.body.id}/revoke`)).toEqual([200, 409, 409, 409, 409]);
  });

  it('publishes a version exactly once under concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        request(api('/operator/releases'), {
          token: operator.token,
          json: {
            version: 'v7.0.0',
            object_key: `svc/v7.0.0/attempt-${i}.tar.gz`,
            checksum_sha256: String(i).repeat(64),
            size_bytes: i,
            published_at: '2026-01-01T00:00:00Z',
          },
        }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const listed = await request(api('/operator/releases'), { token: operator.token });
    const winner = results.find((res) => res.status === 201)!.body;
    expect(listed.body.filter((r: { version: string }) => r.version === 'v7.0.0')).toEqual([winner]);
  });
});

describe('configuration', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig({ SVC_ENV: 'test', ...env });
      return 'accepted';
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };

  it('stops the start on a signing key that is not Ed25519 or P-256, or unreadable', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(keyDir, 'rsa.pem'), rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    writeFileSync(join(keyDir, 'p384.pem'), p384.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    writeFileSync(join(keyDir, 'junk.pem'), 'not a key');
    const wrongKind = 'LICENCE_SIGNING_KEY_FILE: expected an Ed25519 or P-256 (ES256) private key';
    expect(refusal({ LICENCE_SIGNING_KEY_FILE: join(keyDir, 'rsa.pem') })).toBe(wrongKind);
    expect(refusal({ LICENCE_SIGNING_KEY_FILE: join(keyDir, 'p384.pem') })).toBe(wrongKind);
    expect(refusal({ LICENCE_SIGNING_KEY_FILE: join(keyDir, 'junk.pem') })).toBe(
      'LICENCE_SIGNING_KEY_FILE: not a PEM private key',
    );
    expect(refusal({ LICENCE_SIGNING_KEY_FILE: join(keyDir, 'absent.pem') })).toMatch(/cannot read/);
  });

  it('reads RELEASE_STORE: file://, s3://bucket/prefix, the DATA_DIR default, and refuses anything else', () => {
    expect(loadConfig({ SVC_ENV: 'test' }).releaseStore).toBeUndefined();
    expect(loadConfig({ SVC_ENV: 'test', DATA_DIR: '/var/lib/svc' }).releaseStore).toEqual({
      kind: 'file',
      dir: '/var/lib/svc/releases',
    });
    expect(loadConfig({ SVC_ENV: 'test', RELEASE_STORE: 'file:///srv/releases' }).releaseStore).toEqual({
      kind: 'file',
      dir: '/srv/releases',
    });
    expect(
      loadConfig({
        SVC_ENV: 'test',
        RELEASE_STORE: 's3://svc-releases/dist',
        S3_ENDPOINT: 'https://minio.example.com',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }).releaseStore,
    ).toEqual({
      kind: 's3',
      bucket: 'svc-releases',
      prefix: 'dist/',
      endpoint: 'https://minio.example.com',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(refusal({ RELEASE_STORE: 'ftp://x' })).toMatch(/^RELEASE_STORE: expected/);
    expect(refusal({ RELEASE_STORE: 's3://bucket/p', AWS_ACCESS_KEY_ID: 'id' })).toMatch(/set both, or neither/);
  });
});
