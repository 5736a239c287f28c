import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { request } from '../support/http.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// The s3:// release store (issue 27 item 8; ARCHITECTURE.md "Licence signing"): the service presigns with the AWS
// SDK and the S3-compatible server (s3rver here, MinIO, Ceph, R2 or S3 in production) serves the bytes itself.
// Also: an ES256 signing key, its licence verified with the public key alone.

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

const BUCKET = 'svc-releases';
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let s3: S3rverInstance;
let s3Url: string;
let svc: TestService;
let workDir: string;
let publicPem: string;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'svc-s3-'));
  const port = await freePort();
  s3 = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: join(workDir, 's3'),
    configureBuckets: [{ name: BUCKET }],
  });
  await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(workDir, 'licence.pem'), pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  publicPem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
  svc = await startService({
    LICENCE_SIGNING_KEY_FILE: join(workDir, 'licence.pem'),
    RELEASE_STORE: `s3://${BUCKET}/dist`,
    S3_ENDPOINT: s3Url,
    S3_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
  });
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
  await s3?.close();
  rmSync(workDir, { recursive: true, force: true });
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const manage = (path: string, json: unknown = {}) => request(api(path), { token: operator.token, json });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const download = (version: string, credential: string) =>
  fetch(api(`/distribution/releases/${version}`), {
    headers: { authorization: `Bearer ${credential}` },
    redirect: 'manual',
  });

describe('the s3:// release store', () => {
  const bytes = randomBytes(300_000);
  let credential: string;

  it('issues an ES256 licence that verifies with the public key, and a credential for it', async () => {
    const licence = await manage('/operator/licences', {
      licensee: 'Bucket Co',
      install_id: 'install-s3',
      plan_code: 'enterprise',
      term_days: 30,
    });
    expect(licence.status, licence.text).toBe(201);
    const { payload, protectedHeader } = await jwtVerify(
      licence.body.licence_jwt,
      await importSPKI(publicPem, 'ES256'),
      {
        currentDate: svc.clock.now(),
      },
    );
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ jti: licence.body.id, plan_code: 'enterprise', licensee: 'Bucket Co' });
    const created = await manage('/operator/distribution-credentials', { licence_pk: licence.body.id, label: 's3' });
    expect(created.status, created.text).toBe(201);
    credential = created.body.credential;
  });

  it('redirects to a URL presigned by the AWS SDK that the S3 server honours without the credential', async () => {
    // The operator uploads the object to the bucket, under the store's prefix, and publishes its catalogue entry.
    const client = new S3Client({ endpoint: s3Url, region: 'us-east-1', forcePathStyle: true, credentials: KEYS });
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'dist/svc/v3.0.0/svc.tar.gz', Body: bytes }));
    client.destroy();
    const published = await manage('/operator/releases', {
      version: 'v3.0.0',
      object_key: 'svc/v3.0.0/svc.tar.gz',
      checksum_sha256: sha256(bytes),
      size_bytes: bytes.length,
      published_at: svc.clock.now().toISOString(),
    });
    expect(published.status, published.text).toBe(201);

    const res = await download('v3.0.0', credential);
    expect(res.status, await res.text()).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(s3Url);
    expect(location.pathname).toBe(`/${BUCKET}/dist/svc/v3.0.0/svc.tar.gz`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.href).not.toContain(credential);

    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(sha256(Buffer.from(await fetched.arrayBuffer()))).toBe(sha256(bytes));
    // (s3rver checks a V4 link's expiry and access key, not its signature: MinIO, Ceph, R2 and S3 do.)
    expect(location.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
  });

  it('presigns on the service clock: a link handed out more than five minutes ago is refused by the server', async () => {
    svc.clock.advance(-301_000);
    const res = await download('v3.0.0', credential);
    svc.clock.advance(301_000);
    expect(res.status).toBe(302);
    const expired = await fetch(res.headers.get('location')!);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/expired/i);
  });

  it('has no file:// object route while the store is s3://', async () => {
    const res = await request(api('/distribution/objects/svc/v3.0.0/svc.tar.gz?expires=1&sha256=a&size=1&signature=a'));
    expect(res.status).toBe(404);
  });
});
