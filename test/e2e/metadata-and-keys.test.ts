import { createPublicKey } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ PUBLIC_SITE_URL: 'https://www.example.com/' });
});
afterAll(async () => {
  await svc?.close();
});

const jwks = async () =>
  (await request<{ keys: Array<Record<string, string>> }>(`${svc.url}/.well-known/jwks.json`)).body.keys;
const accessToken = async () =>
  (await request<{ access_token: string }>(`${svc.url}/api/v1/auth/signup`, { json: newAccount() })).body.access_token;

describe('GET /.well-known/jwks.json and key rotation', () => {
  it('publishes the active and staged keys with kid, alg and use; tokens verify against it', async () => {
    const keys = await jwks();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.length).toBeLessThanOrEqual(3);
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
      expect(key).not.toHaveProperty('d');
    }
    const token = await accessToken();
    const { kid } = decodeProtectedHeader(token);
    const jwk = keys.find((k) => k.kid === kid)!;
    const { payload } = await jwtVerify(token, createPublicKey({ key: jwk, format: 'jwk' }), {
      issuer: 'svc-auth',
      audience: 'svc-services',
      currentDate: svc.clock.now(),
    });
    expect(payload).toMatchObject({ sub: expect.any(String), tid: expect.any(String), sid: expect.any(String), ep: 0 });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it('rotates without downtime: the staged key becomes active, the old one still verifies, then retires', async () => {
    const before = await jwks();
    const tokenOfOldKey = await accessToken();
    const oldKid = decodeProtectedHeader(tokenOfOldKey).kid;

    const first = await svc.deps.keyring.rotate();
    expect(first.previous).toBe(oldKid);
    expect(before.map((k) => k.kid)).toContain(first.active); // the new active key was published in advance
    const afterFirst = await jwks();
    expect(afterFirst).toHaveLength(3);
    expect(afterFirst.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, first.active, first.next]));
    const tokenOfNewKey = await accessToken();
    expect(decodeProtectedHeader(tokenOfNewKey).kid).toBe(first.active);
    expect((await request(`${svc.url}/api/v1/me`, { token: tokenOfOldKey })).status).toBe(200);
    expect((await request(`${svc.url}/api/v1/me`, { token: tokenOfNewKey })).status).toBe(200);

    await svc.deps.keyring.rotate();
    const afterSecond = await jwks();
    expect(afterSecond).toHaveLength(3);
    expect(afterSecond.map((k) => k.kid)).not.toContain(oldKid);
    expect((await request(`${svc.url}/api/v1/me`, { token: tokenOfOldKey })).status).toBe(401);
    expect((await request(`${svc.url}/api/v1/me`, { token: tokenOfNewKey })).status).toBe(200);
  });

  it('a token accepted before is refused once it expires, and an altered copy of it is refused', async () => {
    const me = `${svc.url}/api/v1/me`;
    const token = await accessToken();
    expect((await request(me, { token })).status).toBe(200);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url');
    expect((await request(me, { token: `${header}.${longer}.${signature}` })).status).toBe(401);
    svc.clock.advance(901_000);
    try {
      expect((await request(me, { token })).status).toBe(401);
    } finally {
      svc.clock.advance(-901_000);
    }
    expect((await request(me, { token })).status).toBe(200);
  });

  it('another node verifies tokens of the promoted key at once and signs with it within a minute', async () => {
    const other = await startSecondNode(svc);
    try {
      const rotated = await svc.deps.keyring.rotate();
      const fromFirst = await accessToken();
      expect(decodeProtectedHeader(fromFirst).kid).toBe(rotated.active);
      // The other node has not re-read the key set, but the promoted key was published (staged) in advance.
      expect((await request(`${other.url}/api/v1/me`, { token: fromFirst })).status).toBe(200);
      svc.clock.advance(61_000);
      // The first signature after a minute starts the re-read; the ones after it use the promoted key.
      const kids: string[] = [];
      for (let i = 0; i < 5 && kids.at(-1) !== rotated.active; i++) {
        const signup = await request<{ access_token: string }>(`${other.url}/api/v1/auth/signup`, {
          json: newAccount(),
        });
        kids.push(decodeProtectedHeader(signup.body.access_token).kid!);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(kids.at(-1)).toBe(rotated.active);
      expect(kids[0]).toBe(rotated.previous);
    } finally {
      svc.clock.advance(-61_000);
      await other.close();
    }
  });

  it('stores private keys encrypted, never in the clear', async () => {
    const stored = await rows<{ private_key_sealed: string }>(
      svc.deps.database.db,
      sql`select private_key_sealed from signing_keys`,
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) {
      expect(row.private_key_sealed).toMatch(/^v1\./);
      expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
    }
  });
});

describe('GET /.well-known/security.txt', () => {
  it('answers text/plain with Contact, Expires, Preferred-Languages, Canonical and Policy', async () => {
    const res = await request(`${svc.url}/.well-known/security.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^Contact: mailto:security@/m);
    expect(res.text).toMatch(/^Preferred-Languages: en$/m);
    expect(res.text).toContain(`Canonical: ${svc.deps.config.baseUrl}/.well-known/security.txt`);
    expect(res.text).toContain('Policy: https://www.example.com/security-policy');
    const expires = /^Expires: (.+)$/m.exec(res.text)![1]!;
    const ahead = new Date(expires).getTime() - svc.clock.now().getTime();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(366 * 24 * 3600 * 1000);
  });

  it('has no Policy line when no public site is configured', async () => {
    const bare = await startService();
    try {
      const res = await request(`${bare.url}/.well-known/security.txt`);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/^Policy:/m);
    } finally {
      await bare.close();
    }
  });
});

describe('GET /authz/catalog', () => {
  it('serves the system roles and read-only flags; owner holds everything, baselines hold identity:self:write', async () => {
    const res = await request(`${svc.url}/api/v1/authz/catalog`);
    expect(res.status).toBe(200);
    const { roles, permissions, version } = res.body as {
      version: string;
      roles: Array<{ code: string; permissions: string[]; read_only: boolean; grantable: boolean }>;
      permissions: Array<{ code: string; read_only: boolean }>;
    };
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    expect(roles.map((r) => r.code)).toEqual([
      'owner',
      'admin',
      'security_operator',
      'compliance_officer',
      'auditor',
      'member',
      'customer',
    ]);
    const all = permissions.map((p) => p.code);
    for (const code of all) expect(code).toMatch(/^[a-z]+(:[a-z_*]+)+$/);
    expect(roles.find((r) => r.code === 'owner')!.permissions.sort()).toEqual([...all].sort());
    for (const baseline of ['member', 'customer']) {
      expect(roles.find((r) => r.code === baseline)!.permissions).toContain('identity:self:write');
    }
    const auditor = roles.find((r) => r.code === 'auditor')!;
    expect(auditor.read_only).toBe(true);
    expect(res.body.separation_of_duties).toContainEqual({
      id: 'auditor-independence',
      description: expect.any(String),
    });
    const readOnly = new Set(permissions.filter((p) => p.read_only).map((p) => p.code));
    expect(auditor.permissions.filter((p) => !readOnly.has(p))).toEqual(['identity:self:write']);
    expect(roles.find((r) => r.code === 'customer')!.grantable).toBe(false);
    expect(roles.find((r) => r.code === 'owner')!.grantable).toBe(false);
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('declares the slice endpoints', async () => {
    const res = await request(`${svc.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    for (const path of [
      '/api/v1/auth/signup',
      '/api/v1/auth/login',
      '/api/v1/auth/refresh',
      '/api/v1/auth/logout',
      '/api/v1/me',
    ]) {
      expect(Object.keys(res.body.paths)).toContain(path);
    }
  });
});
