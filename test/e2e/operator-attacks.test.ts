import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { base64url, importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentAccessToken } from '../support/agent-tokens.js';
import { delegate, registerAgent } from '../support/agents.js';
import { observableAnswer, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { bootstrapPlatformOwner } from '../support/platform.js';
import { startService, type TestService } from '../support/service.js';

// An attacker's review of the operator plane (Part B 4.10; ARCHITECTURE.md "Operator tenant administration",
// "Licence signing", "Maintenance term"): who besides the platform operator's people can reach `/operator`
// (agents and API keys, of the platform organization and of others), what a tampered download link reaches, and
// what a licence bundle is worth once altered or carried to another installation.

let svc: TestService;
let dataDir: string;
let publicPem: string;
let operator: Awaited<ReturnType<typeof bootstrapPlatformOwner>>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-operator-attacks-'));
  const pair = generateKeyPairSync('ed25519');
  writeFileSync(join(dataDir, 'licence.pem'), pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  publicPem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
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

describe('who reaches /operator besides the platform operator’s people', () => {
  it('agents and API keys of an ordinary organization: 403 even with operator:* delegated or scoped', async () => {
    const owner = await signUpOwner(svc.url, 'outsider');
    // An owner holds every permission, operator:* included, so both can be handed on; the platform check still holds.
    const agent = await registerAgent(svc, owner.token);
    expect((await delegate(svc, owner.token, agent.agent_id, ['operator:read', 'operator:manage'])).status).toBe(201);
    const agentToken = await agentAccessToken(svc, agent.credential);
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'ops', scopes: ['operator:read', 'operator:manage'] },
    });
    expect(key.status, key.text).toBe(201);
    for (const token of [agentToken, key.body.key as string]) {
      for (const [method, path, json] of [
        ['GET', '/operator/tenants', undefined],
        ['PUT', `/operator/tenants/${owner.tenantId}/plan`, { plan_code: 'enterprise' }],
        ['GET', '/operator/licences', undefined],
        ['POST', '/operator/invite-codes', { email: 'x@example.com', door: 'onboard' }],
      ] as const) {
        const res = await request(api(path), { method, token, ...(json ? { json } : {}) });
        expect(res.status, `${method} ${path} ${res.text}`).toBe(403);
      }
    }
    const tenant = await request(api(`/operator/tenants?q=${owner.slug}`), { token: operator.token });
    expect(tenant.body.tenants[0].plan_code).toBe('free');
  });

  it('an agent of the platform organization acts within its delegation only, and never issues invite codes', async () => {
    const agent = await registerAgent(svc, operator.token);
    const bare = await agentAccessToken(svc, agent.credential);
    expect((await request(api('/operator/tenants'), { token: bare })).status).toBe(403);

    expect((await delegate(svc, operator.token, agent.agent_id, ['operator:read'])).status).toBe(201);
    const reader = await agentAccessToken(svc, agent.credential);
    expect((await request(api('/operator/tenants'), { token: reader })).status).toBe(200);
    const write = await request(api(`/operator/tenants/${operator.tenantId}/plan`), {
      method: 'PUT',
      token: reader,
      json: { plan_code: 'free' },
    });
    expect(write.status, write.text).toBe(403);
    // Invite codes are a person's act (ARCHITECTURE.md "Onboarding invite codes": a member of the organization).
    expect((await delegate(svc, operator.token, agent.agent_id, ['operator:manage'])).status).toBe(201);
    const manager = await agentAccessToken(svc, agent.credential);
    const invite = await request(api('/operator/invite-codes'), {
      token: manager,
      json: { email: 'agent-made@example.com', door: 'onboard' },
    });
    expect(invite.status, invite.text).toBe(403);
    const codes = await request(api('/operator/invite-codes'), { token: operator.token });
    expect(JSON.stringify(codes.body)).not.toContain('agent-made@example.com');
  });

  it('an API key of the platform organization reaches only what its scopes name', async () => {
    const create = (scopes: string[]) =>
      request(api('/tenants/api-keys'), { token: operator.token, json: { label: 'ops key', scopes } });
    const reader = await create(['operator:read']);
    expect(reader.status, reader.text).toBe(201);
    expect((await request(api('/operator/releases'), { token: reader.body.key })).status).toBe(200);
    const publish = await request(api('/operator/releases'), {
      token: reader.body.key,
      json: {
        version: 'v0.0.1',
        object_key: 'svc/x.tgz',
        checksum_sha256: 'a'.repeat(64),
        size_bytes: 1,
        published_at: '2026-01-01T00:00:00Z',
      },
    });
    expect(publish.status, publish.text).toBe(403);
    const other = await create(['tenant:read']);
    expect((await request(api('/operator/tenants'), { token: other.body.key })).status).toBe(403);
  });
});

describe('download links and credentials', () => {
  const bytes = { 'v3.0.0': randomBytes(4_000), 'v3.1.0': randomBytes(3_000) };
  const keyOf = (version: string) => `svc/${version}/svc.tar.gz`;
  let credential: string;
  let credentialId: string;

  beforeAll(async () => {
    const now = svc.clock.now().getTime();
    for (const [version, content] of Object.entries(bytes)) {
      const path = join(dataDir, 'releases', keyOf(version));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      const res = await manage('/operator/releases', {
        version,
        object_key: keyOf(version),
        checksum_sha256: sha256(content),
        size_bytes: content.length,
        published_at: new Date(now - 86_400_000).toISOString(),
      });
      expect(res.status, res.text).toBe(201);
    }
    // A file beside the store that no release names: what a traversal would aim at.
    writeFileSync(join(dataDir, 'secret.txt'), 'not a release');
    const licence = await manage('/operator/licences', {
      licensee: 'Link Ltd',
      install_id: 'link-1',
      plan_code: 'pro',
      term_days: 30,
    });
    const issued = await manage('/operator/distribution-credentials', { licence_pk: licence.body.id, label: 'l' });
    credential = issued.body.credential;
    credentialId = issued.body.id;
  });

  const linkOf = async (version: string) => {
    const res = await fetch(api(`/distribution/releases/${version}`), {
      headers: { authorization: `Bearer ${credential}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  };
  const status = async (url: URL | string) => (await fetch(url)).status;

  it('refuses a link whose signature, expiry, checksum, size or path is altered, or that points elsewhere', async () => {
    const link = await linkOf('v3.0.0');
    const other = await linkOf('v3.1.0');
    const altered = (change: (url: URL) => void) => {
      const copy = new URL(link);
      change(copy);
      return copy;
    };
    const flip = (hex: string) => `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
    const cases: Array<[string, URL | string]> = [
      ['signature', altered((u) => u.searchParams.set('signature', flip(u.searchParams.get('signature')!)))],
      ['no signature', altered((u) => u.searchParams.delete('signature'))],
      [
        'later expiry',
        altered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      ],
      ['checksum', altered((u) => u.searchParams.set('sha256', sha256(bytes['v3.1.0'])))],
      ['size', altered((u) => u.searchParams.set('size', String(bytes['v3.1.0'].length)))],
      // Another release's object under this link's signature, and this object under the other's.
      ['path of another release', altered((u) => (u.pathname = other.pathname))],
      ['query of another release', `${link.origin}${link.pathname}${other.search}`],
      // Traversal out of the store, encoded so no client normalizes it away.
      [
        'encoded traversal',
        `${link.origin}/api/v1/distribution/objects/svc/%2e%2e/%2e%2e/%2e%2e/secret.txt${link.search}`,
      ],
      ['encoded slash', `${link.origin}/api/v1/distribution/objects/..%2f..%2fsecret.txt${link.search}`],
    ];
    for (const [name, url] of cases) {
      const res = await fetch(url);
      expect([403, 404, 422], `${name}: ${res.status}`).toContain(res.status);
      expect(await res.text()).not.toContain('not a release');
    }
    // The genuine links still serve their own bytes.
    const served = Buffer.from(await (await fetch(link)).arrayBuffer());
    expect(sha256(served)).toBe(sha256(bytes['v3.0.0']));
    expect(await status(other)).toBe(200);
  });

  it('stops a credential at once when revoked, and a yanked release to every credential', async () => {
    expect((await manage('/operator/releases/v3.1.0/yank')).status).toBe(200);
    const unknownPath = observableAnswer(await request(`${svc.url}/api/v1/no-such-path`));
    // Not following the redirect: the answer itself is what tells a refusal from a grant.
    const download = async (version: string) => {
      const res = await fetch(api(`/distribution/releases/${version}`), {
        headers: { authorization: `Bearer ${credential}` },
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, text: await res.text(), body: undefined };
    };
    expect(observableAnswer(await download('v3.1.0'))).toEqual(unknownPath);
    expect((await download('v3.0.0')).status).toBe(302);
    expect((await manage(`/operator/distribution-credentials/${credentialId}/revoke`)).status).toBe(200);
    expect(observableAnswer(await download('v3.0.0'))).toEqual(unknownPath);
    // A version spelled to reach past the strict vX.Y.Z shape is the same 404.
    for (const version of ['v3.0.0%2F..', '..%2Fv3.0.0', 'v3.0.0.', 'V3.0.0']) {
      expect(observableAnswer(await download(version)).status).toBe(404);
    }
  });
});

describe('licence bundles', () => {
  it('an altered, unsigned or re-addressed licence does not verify offline, and the API takes it for nothing', async () => {
    const issue = (install_id: string) =>
      manage('/operator/licences', {
        licensee: `Customer ${install_id}`,
        install_id,
        plan_code: 'free',
        term_days: 30,
      });
    const mine = (await issue('customer-a')).body.licence_jwt as string;
    const key = await importSPKI(publicPem, 'EdDSA');
    const verify = (jwt: string, subject: string) =>
      jwtVerify(jwt, key, {
        issuer: svc.deps.config.baseUrl,
        subject,
        typ: 'licence+jwt',
        currentDate: svc.clock.now(),
      });
    await expect(verify(mine, 'customer-a')).resolves.toBeTruthy();

    const [header, payload, signature] = mine.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(base64url.decode(payload)).toString());
    const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
    const upgraded = `${header}.${encode({ ...claims, plan_code: 'enterprise', caps: { seats: null } })}.${signature}`;
    const unsigned = `${encode({ alg: 'none', typ: 'licence+jwt' })}.${payload}.`;
    const otherSignature = `${header}.${payload}.${(await issue('customer-b')).body.licence_jwt.split('.')[2]}`;
    for (const forged of [upgraded, unsigned, otherSignature]) {
      await expect(verify(forged, 'customer-a')).rejects.toThrow();
    }
    // One customer's licence presented by another installation: bound to its install id.
    await expect(verify(mine, 'customer-b')).rejects.toThrow();

    // The bundle is no credential of the service: not a bearer token, not a distribution credential.
    expect((await request(api('/operator/licences'), { token: mine })).status).toBe(401);
    const asDownload = await request(api('/distribution/releases/v3.0.0'), { token: mine });
    expect(observableAnswer(asDownload)).toEqual(observableAnswer(await request(`${svc.url}/api/v1/no-such-path`)));
  });
});
