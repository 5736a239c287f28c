import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonResponse, observableAnswer, request } from '../support/http.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// The release catalogue and downloads through the default file:// store (issue 27 items 7, 8; Part B 2.9, 3, 4.10,
// 5.5, 8): publish and yank with their refusals, the 302 to a signed link that works without the credential and
// serves the exact bytes, the link's expiry on the service clock, one identical 404 for every refusal, the
// maintenance term, and the per-credential and per-IP throttles. The clock only moves forward, in file order.

const DAY = 86_400_000;
let svc: TestService;
let dataDir: string;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;
let issuedAt: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-releases-'));
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(dataDir, 'licence.pem'), pair.privateKey.export({ format: 'pem', type: 'sec1' }));
  svc = await startService(
    { LICENCE_SIGNING_KEY_FILE: join(dataDir, 'licence.pem'), DATA_DIR: dataDir },
    { baseUrlIsListenAddress: true },
  );
  operator = await bootstrapPlatformOwner(svc);
});
afterAll(async () => {
  await svc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const manage = (path: string, json: unknown = {}) => request(api(path), { token: operator.token, json });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Writes a release object into the store's directory (DATA_DIR/releases), as an operator's upload would. */
function storeObject(key: string, bytes: Buffer) {
  const path = join(dataDir, 'releases', key);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

/** `GET /distribution/releases/{version}` without following the redirect; headers as given. */
async function download(version: string, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(api(`/distribution/releases/${version}`), { headers, redirect: 'manual' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text };
}
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

async function licence(extra: Record<string, unknown> = {}) {
  const res = await manage('/operator/licences', {
    licensee: 'Downloader Ltd',
    install_id: `install-${randomBytes(4).toString('hex')}`,
    plan_code: 'enterprise',
    term_days: 365,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function credential(licencePk: string, extra: Record<string, unknown> = {}) {
  const res = await manage('/operator/distribution-credentials', { licence_pk: licencePk, label: 'test', ...extra });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, secret: res.body.credential as string };
}

const objects = {
  'v1.0.0': randomBytes(200_000),
  'v1.0.1': randomBytes(70_000),
  'v1.1.0': randomBytes(1_000),
  'v1.2.0': randomBytes(5_000),
};
const keyOf = (version: string) => `svc/${version}/svc-${version.slice(1)}.tar.gz`;
async function publish(version: keyof typeof objects, publishedAt: number) {
  storeObject(keyOf(version), objects[version]);
  const res = await manage('/operator/releases', {
    version,
    object_key: keyOf(version),
    checksum_sha256: sha256(objects[version]),
    size_bytes: objects[version].length,
    published_at: new Date(publishedAt).toISOString(),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

// Set up in the first test: a licence whose maintenance runs 30 days from issue, its credentials, the catalogue.
let maintained: string;
let live: { id: string; secret: string };
let shortLived: { id: string; secret: string };

describe('the release catalogue', () => {
  it('publishes releases, immutable once published', async () => {
    issuedAt = svc.clock.now().getTime();
    maintained = await licence({ maintenance_days: 30 });
    live = await credential(maintained);
    shortLived = await credential(maintained, { expires_days: 1 });
    const first = await publish('v1.0.0', issuedAt - DAY);
    expect(first).toEqual({
      version: 'v1.0.0',
      object_key: keyOf('v1.0.0'),
      checksum_sha256: sha256(objects['v1.0.0']),
      size_bytes: objects['v1.0.0'].length,
      published_at: new Date(issuedAt - DAY).toISOString(),
      status: 'published',
      created_at: new Date(issuedAt).toISOString(),
      yanked_at: null,
    });
    await publish('v1.0.1', issuedAt + 10 * DAY);
    await publish('v1.1.0', issuedAt + 60 * DAY);
    await publish('v1.2.0', issuedAt - 2 * DAY);

    const again = await manage('/operator/releases', {
      version: 'v1.0.0',
      object_key: 'svc/other.tar.gz',
      checksum_sha256: sha256(Buffer.from('other bytes')),
      size_bytes: 11,
      published_at: new Date(issuedAt).toISOString(),
    });
    expect(again.status, again.text).toBe(409);
    const listed = await request(api('/operator/releases'), { token: operator.token });
    expect(listed.body.find((r: { version: string }) => r.version === 'v1.0.0').checksum_sha256).toBe(
      sha256(objects['v1.0.0']),
    );
  });

  it('refuses a version that is not vX.Y.Z, a malformed checksum or an escaping object key (422), adding nothing', async () => {
    const valid = {
      version: 'v2.0.0',
      object_key: 'svc/v2.0.0/svc.tar.gz',
      checksum_sha256: 'a'.repeat(64),
      size_bytes: 1,
      published_at: new Date(issuedAt).toISOString(),
    };
    for (const [change, field] of [
      [{ version: '2.0.0' }, 'version'],
      [{ version: 'v2.0' }, 'version'],
      [{ version: 'v02.0.0' }, 'version'],
      [{ version: 'v2.0.0-rc.1' }, 'version'],
      [{ version: 'v2.0.0+build' }, 'version'],
      [{ checksum_sha256: 'a'.repeat(63) }, 'checksum_sha256'],
      [{ checksum_sha256: 'z'.repeat(64) }, 'checksum_sha256'],
      [{ object_key: '../../secret.key' }, 'object_key'],
      [{ object_key: '/etc/passwd' }, 'object_key'],
      [{ size_bytes: -1 }, 'size_bytes'],
      [{ published_at: 'yesterday' }, 'published_at'],
    ] as const) {
      const res = await manage('/operator/releases', { ...valid, ...change });
      expect(res.status, `${JSON.stringify(change)} ${res.text}`).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(`^${field}`));
    }
    const listed = await request(api('/operator/releases'), { token: operator.token });
    expect(listed.body.map((r: { version: string }) => r.version)).not.toContain('v2.0.0');
  });
});

describe('downloads', () => {
  it('redirects to a signed link that serves the exact bytes without the credential', async () => {
    const res = await download('v1.0.0', bearer(live.secret));
    expect(res.status, res.text).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${svc.url}/api/v1/distribution/objects/`)).toBe(true);
    expect(location).not.toContain(live.secret);

    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    const bytes = Buffer.from(await fetched.arrayBuffer());
    expect(sha256(bytes)).toBe(sha256(objects['v1.0.0']));
    expect(fetched.headers.get('content-digest')).toBe(
      `sha-256=:${createHash('sha256').update(objects['v1.0.0']).digest('base64')}:`,
    );

    // The credential's last use is listed, never the credential.
    const listed = await request(api('/operator/distribution-credentials'), { token: operator.token });
    const row = listed.body.find((entry: { id: string }) => entry.id === live.id);
    expect(row.last_used_at).toBe(svc.clock.now().toISOString());
    expect(listed.text).not.toContain(live.secret);
  });

  it('refuses an altered link and, after the service clock moves past its few minutes, an expired one', async () => {
    const res = await download('v1.2.0', bearer(live.secret));
    const location = new URL(res.headers.get('location')!);
    const altered = new URL(location);
    altered.searchParams.set('size', String(objects['v1.2.0'].length + 1));
    expect((await fetch(altered)).status).toBe(403);
    const otherObject = new URL(location);
    otherObject.pathname = otherObject.pathname.replace('v1.2.0', 'v1.0.0').replace('1.2.0', '1.0.0');
    expect((await fetch(otherObject)).status).toBe(403);

    svc.clock.advance(299_000);
    expect((await fetch(location)).status).toBe(200);
    svc.clock.advance(2_000);
    const expired = await fetch(location);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ detail: 'This download link is altered or has expired' });
  });

  it('never serves a stored object that differs from its catalogue checksum', async () => {
    // Same size, other bytes: the transfer fails before it completes.
    storeObject(keyOf('v1.1.0'), randomBytes(objects['v1.1.0'].length));
    const late = await licence();
    const all = await credential(late);
    const res = await download('v1.1.0', bearer(all.secret));
    expect(res.status).toBe(302);
    const served = await fetch(res.headers.get('location')!)
      .then(async (response) => ({ status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }))
      .catch(() => undefined);
    // Either the transfer breaks (the body never completes) or no success is answered at all.
    expect(served === undefined || served.status !== 200, JSON.stringify(served?.status)).toBe(true);
    storeObject(keyOf('v1.1.0'), objects['v1.1.0']);
    const whole = await fetch((await download('v1.1.0', bearer(all.secret))).headers.get('location')!);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(objects['v1.1.0']));
  });

  it('answers every refusal with one identical 404, the same as an unknown path', async () => {
    const revokedLicence = await licence();
    const ofRevokedLicence = await credential(revokedLicence);
    expect((await manage(`/operator/licences/${revokedLicence}/revoke`)).status).toBe(200);
    const revoked = await credential(maintained);
    expect((await manage(`/operator/distribution-credentials/${revoked.id}/revoke`)).status).toBe(200);
    const yanked = await manage('/operator/releases/v1.2.0/yank');
    expect(yanked.status, yanked.text).toBe(200);
    expect(yanked.body.status).toBe('yanked');
    expect((await manage('/operator/releases/v1.2.0/yank')).status).toBe(409);
    expect((await manage('/operator/releases/v9.9.9/yank')).status).toBe(404);
    const catalogue = await request(api('/operator/releases'), { token: operator.token });
    expect(catalogue.body.find((r: { version: string }) => r.version === 'v1.2.0').status).toBe('yanked');

    // The short-lived credential (1 day) expires; the licence's maintenance (30 days) has not lapsed yet.
    svc.clock.advance(DAY);

    const unknownPath = observableAnswer(await request(`${svc.url}/api/v1/no-such-path`));
    const unknownCredential = `zdc_${randomBytes(32).toString('base64url')}`;
    const refusals: Array<[string, Promise<JsonResponse>]> = [
      ['unknown credential', download('v1.0.0', bearer(unknownCredential))],
      ['no credential', download('v1.0.0')],
      ['not a distribution credential', download('v1.0.0', bearer(operator.token))],
      ['malformed header', download('v1.0.0', { authorization: `Basic ${live.secret}` })],
      ['revoked credential', download('v1.0.0', bearer(revoked.secret))],
      ['expired credential', download('v1.0.0', bearer(shortLived.secret))],
      ['revoked licence', download('v1.0.0', bearer(ofRevokedLicence.secret))],
      ['missing release', download('v9.9.9', bearer(live.secret))],
      ['not a release version', download('latest', bearer(live.secret))],
      ['yanked release', download('v1.2.0', bearer(live.secret))],
      ['published after the maintenance term', download('v1.1.0', bearer(live.secret))],
    ];
    for (const [cause, answer] of refusals) {
      const observed = observableAnswer(await answer);
      expect(observed, cause).toEqual(unknownPath);
      expect(observed.status).toBe(404);
    }
    // The same credential still downloads what its term covers.
    expect((await download('v1.0.0', bearer(live.secret))).status).toBe(302);
  });

  it('keeps the releases published during a lapsed maintenance term, and only those', async () => {
    svc.clock.advance(40 * DAY);
    for (const version of ['v1.0.0', 'v1.0.1']) {
      const res = await download(version, bearer(live.secret));
      expect(res.status, `${version} ${res.text}`).toBe(302);
      const bytes = Buffer.from(await (await fetch(res.headers.get('location')!)).arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(objects[version as keyof typeof objects]));
    }
    expect((await download('v1.1.0', bearer(live.secret))).status).toBe(404);
  });

  it('throttles per credential (429 with Retry-After), known or not, while another credential goes on', async () => {
    // The clock moved 41 days: the operator signs in again.
    const login = await request(api('/auth/login'), {
      json: { email: operator.email, password: operator.password, tenant_slug: operator.slug },
    });
    expect(login.status, login.text).toBe(200);
    operator.token = login.body.access_token;
    const throttled = await credential(maintained);
    let refused: JsonResponse | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await download('v1.0.0', bearer(throttled.secret));
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(302);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused?.headers.get('ratelimit-remaining')).toBe('0');
    expect((await download('v1.0.0', bearer(live.secret))).status).toBe(302);
  });

  it('throttles per source IP whatever credential is presented', async () => {
    let refused: JsonResponse | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await download('v1.0.0', bearer(`zdc_${randomBytes(32).toString('base64url')}`));
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(404);
    }
    expect(refused?.status).toBe(429);
    expect((await download('v1.0.0', bearer(live.secret))).status).toBe(429);
  });
});
