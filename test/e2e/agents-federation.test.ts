import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { REFUSAL_ANSWERED_AFTER_MS } from '../../src/modules/agents/federation-exchange.js';
import { mintAgentToken } from '../support/agent-tokens.js';
import { registerAgent } from '../support/agents.js';
import {
  type AttestationIssuers,
  startAttestationIssuers,
  TEST_CA_FILE,
  type TestIssuer,
} from '../support/attestation-issuer.js';
import { newDpopKey } from '../support/dpop.js';
import { type JsonResponse, request } from '../support/http.js';
import { addMember, signUpOwner } from '../support/organizations.js';
import { startSecondNode, startService, type TestService } from '../support/service.js';

// Federated workload identity (Part B 2.2, 4.1, 8; ARCHITECTURE.md "Federated issuers"): issuers and bindings
// administered over HTTP, attestations signed by issuers the test runs over TLS (reached through the test-only
// egress routes), and every refusal compared byte for byte.

let svc: TestService;
let issuers: AttestationIssuers;
let owner: Awaited<ReturnType<typeof signUpOwner>>;
/** This deployment's issuer URL: the `aud` every attestation must carry. */
let aud: string;

beforeAll(async () => {
  issuers = await startAttestationIssuers();
  svc = await startService({ EGRESS_TEST_ROUTES: issuers.route, EGRESS_TEST_CA_FILE: TEST_CA_FILE });
  owner = await signUpOwner(svc.url, 'federation');
  aud = svc.deps.config.oidcIssuer;
});
afterAll(async () => {
  await svc?.close();
  await issuers?.close();
});

const api = (path: string, base = svc.url) => `${base}/api/v1${path}`;
const now = () => svc.clock.now();

function registerIssuer(token: string, body: Record<string, unknown>) {
  return request(api('/agents/issuers'), { token, json: body });
}

function bind(token: string, issuerId: string, body: Record<string, unknown>) {
  return request(api(`/agents/issuers/${issuerId}/bindings`), { token, json: body });
}

/** Registers `issuer` for the owner's organization and answers its id, failing loudly unless 201. */
async function trust(issuer: TestIssuer, profile = 'generic', who = owner): Promise<string> {
  const res = await registerIssuer(who.token, { issuer: issuer.iss, profile });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function bound(issuerId: string, agentId: string, claims: Record<string, string>, who = owner) {
  const res = await bind(who.token, issuerId, { agent_id: agentId, claims });
  expect(res.status, res.text).toBe(201);
  return res.body.binding_id as string;
}

function exchange(tenant: string, subjectToken: string, headers: Record<string, string> = {}, base = svc.url) {
  return request(api('/agents/token/federated', base), { json: { tenant, subject_token: subjectToken }, headers });
}

/** Everything a client could compare between two answers except the per-request headers. */
function shape(res: JsonResponse) {
  const headers = [...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name));
  return { status: res.status, body: res.text, headers };
}

async function eventsOf(tenantId: string, action: string) {
  await svc.deps.afterAnswer.drain();
  return rows<{ data: Record<string, any> }>(
    svc.deps.database.db,
    sql`select data from events where tenant_id = ${tenantId} and action = ${action} order by occurred_at`,
  );
}

/** An unsecured (`alg: none`) or HMAC-signed JWT, which no issuer key can vouch for. */
function handMade(alg: 'none' | 'HS256', claims: Record<string, unknown>, kid?: string): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg, typ: 'JWT', ...(kid ? { kid } : {}) })}.${b64(claims)}`;
  if (alg === 'none') return `${input}.`;
  return `${input}.${createHmac('sha256', 'shared-secret').update(input).digest('base64url')}`;
}

describe('federated issuers: administration', () => {
  it('registers an issuer from its discovery document, lists it with its bindings, refuses a duplicate', async () => {
    const gha = await issuers.issuer('admin-gha');
    const created = await registerIssuer(owner.token, { issuer: gha.iss, profile: 'github-actions', name: 'CI' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      issuer: gha.iss,
      jwks_uri: gha.jwksUri,
      profile: 'github-actions',
      enabled: true,
      name: 'CI',
    });
    expect(created.body.claim_schema).toEqual(expect.arrayContaining(['sub', 'repository', 'ref', 'environment']));

    const duplicate = await registerIssuer(owner.token, { issuer: gha.iss, jwks_uri: gha.jwksUri });
    expect(duplicate.status).toBe(409);

    const agent = await registerAgent(svc, owner.token);
    const claims = { sub: 'repo:acme/app:ref:refs/heads/main', repository: 'acme/app' };
    const binding = await bind(owner.token, created.body.id, { agent_id: agent.agent_id, claims });
    expect(binding.status, binding.text).toBe(201);
    expect(binding.body).toMatchObject({ agent_id: agent.agent_id, claims });
    expect(binding.body.binding_id).toMatch(/^[0-9a-f-]{36}$/);

    const list = await request(api('/agents/issuers'), { token: owner.token });
    expect(list.status).toBe(200);
    const listed = list.body.find((issuer: { id: string }) => issuer.id === created.body.id);
    expect(listed).toMatchObject({ issuer: gha.iss, profile: 'github-actions', enabled: true });
    expect(listed.bindings).toEqual([
      expect.objectContaining({ binding_id: binding.body.binding_id, agent_id: agent.agent_id, claims }),
    ]);

    const registered = await eventsOf(owner.tenantId, 'agent_issuer.registered');
    expect(registered.map((event) => event.data.issuer_id)).toContain(created.body.id);
    const added = await eventsOf(owner.tenantId, 'agent_issuer.binding_added');
    expect(added.map((event) => event.data.binding_id)).toContain(binding.body.binding_id);
  });

  it('takes an explicit jwks_uri without discovery, and refuses bad URLs and failed discovery with 422', async () => {
    const explicit = await registerIssuer(owner.token, {
      issuer: 'https://secure.example.test/no-discovery',
      jwks_uri: 'https://secure.example.test/no-discovery/keys',
      profile: 'kubernetes',
    });
    expect(explicit.status, explicit.text).toBe(201);
    expect(explicit.body).toMatchObject({ profile: 'kubernetes', claim_schema: ['sub'] });

    const refused = [
      { issuer: 'http://secure.example.test/plain' },
      { issuer: 'not a url' },
      { issuer: 'https://127.0.0.1/ip' },
      { issuer: 'https://localhost/local' },
      { issuer: 'https://secure.example.test/q?x=1' },
      { issuer: 'https://secure.example.test/unknown-issuer' },
      { issuer: 'https://secure.example.test/bad-jwks', jwks_uri: 'http://secure.example.test/keys' },
      { issuer: 'https://secure.example.test/bad-profile', jwks_uri: 'https://secure.example.test/k', profile: 'x' },
      { issuer: 'https://secure.example.test/extra', jwks_uri: 'https://secure.example.test/k', secret: 'x' },
    ];
    for (const body of refused) {
      const res = await registerIssuer(owner.token, body);
      expect([res.status, body]).toEqual([422, body]);
      expect(res.body.detail).toEqual(expect.any(String));
    }
  });

  it('bindings: exact claims from the profile, sub required, no wildcards, a live agent, no duplicates, 25 at most', async () => {
    const issuer = await issuers.issuer('admin-bindings');
    const issuerId = await trust(issuer, 'gitlab-ci');
    const agent = await registerAgent(svc, owner.token);
    const retired = await registerAgent(svc, owner.token);
    expect((await request(api(`/agents/${retired.agent_id}/retire`), { token: owner.token, json: {} })).status).toBe(
      200,
    );
    const stranger = await signUpOwner(svc.url, 'stranger');
    const theirs = await registerAgent(svc, stranger.token);

    const refusals: Array<[number, Record<string, unknown>]> = [
      [422, { agent_id: agent.agent_id, claims: { project_path: 'acme/app' } }],
      [422, { agent_id: agent.agent_id, claims: { sub: 'project_path:acme/*' } }],
      [422, { agent_id: agent.agent_id, claims: { sub: 'project_path:acme/ap?' } }],
      [422, { agent_id: agent.agent_id, claims: { sub: 'x', repository: 'acme/app' } }],
      [422, { agent_id: agent.agent_id, claims: { sub: 'x', aud: 'anything' } }],
      [422, { agent_id: agent.agent_id, claims: { sub: 'x', ref: 7 } }],
      [422, { agent_id: agent.agent_id, claims: { sub: '' } }],
      [422, { agent_id: agent.agent_id, claims: 'sub=x' }],
      [422, { agent_id: randomUUID(), claims: { sub: 'x' } }],
      [422, { agent_id: 'not-a-uuid', claims: { sub: 'x' } }],
      [422, { agent_id: retired.agent_id, claims: { sub: 'x' } }],
      [422, { agent_id: theirs.agent_id, claims: { sub: 'x' } }],
      [422, { claims: { sub: 'x' } }],
    ];
    for (const [status, body] of refusals) {
      const res = await bind(owner.token, issuerId, body);
      expect([res.status, body]).toEqual([status, body]);
    }
    expect((await bind(owner.token, randomUUID(), { agent_id: agent.agent_id, claims: { sub: 'x' } })).status).toBe(
      404,
    );

    const claims = { sub: 'project_path:acme/app:ref_type:branch:ref:main', project_path: 'acme/app', ref: 'main' };
    expect((await bind(owner.token, issuerId, { agent_id: agent.agent_id, claims })).status).toBe(201);
    // The same claim set in another order, even for another agent, is a duplicate.
    const reordered = { ref: 'main', project_path: 'acme/app', sub: claims.sub };
    const other = await registerAgent(svc, owner.token);
    const duplicate = await bind(owner.token, issuerId, { agent_id: other.agent_id, claims: reordered });
    expect(duplicate.status).toBe(409);

    for (let i = 1; i < 25; i++) await bound(issuerId, agent.agent_id, { sub: `job-${i}` });
    const full = await bind(owner.token, issuerId, { agent_id: agent.agent_id, claims: { sub: 'job-26' } });
    expect(full.status).toBe(409);
    expect(full.body.detail).toMatch(/25/);
    const list = await request(api('/agents/issuers'), { token: owner.token });
    expect(list.body.find((i: { id: string }) => i.id === issuerId).bindings).toHaveLength(25);
  });

  it('PATCH enabled and DELETE: bindings go with the issuer; one binding can be removed', async () => {
    const issuer = await issuers.issuer('admin-lifecycle');
    const issuerId = await trust(issuer);
    const agent = await registerAgent(svc, owner.token);
    const first = await bound(issuerId, agent.agent_id, { sub: 'one' });
    await bound(issuerId, agent.agent_id, { sub: 'two' });

    const disabled = await request(api(`/agents/issuers/${issuerId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: issuerId, enabled: false });
    const badPatch = await request(api(`/agents/issuers/${issuerId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { enabled: 'no' },
    });
    expect(badPatch.status).toBe(422);

    const removeOne = () =>
      request(api(`/agents/issuers/${issuerId}/bindings/${first}`), { method: 'DELETE', token: owner.token });
    expect((await removeOne()).status).toBe(204);
    expect((await removeOne()).status).toBe(404);

    const removed = await request(api(`/agents/issuers/${issuerId}`), { method: 'DELETE', token: owner.token });
    expect(removed.status).toBe(204);
    const again = await request(api(`/agents/issuers/${issuerId}`), { method: 'DELETE', token: owner.token });
    expect(again.status).toBe(404);
    const list = await request(api('/agents/issuers'), { token: owner.token });
    expect(list.body.map((i: { id: string }) => i.id)).not.toContain(issuerId);
    const left = await rows(
      svc.deps.database.db,
      sql`select id from agent_issuer_bindings where issuer_id = ${issuerId}`,
    );
    expect(left).toEqual([]);
    expect((await eventsOf(owner.tenantId, 'agent_issuer.updated')).map((e) => e.data)).toContainEqual(
      expect.objectContaining({ issuer_id: issuerId, enabled: false }),
    );
    expect((await eventsOf(owner.tenantId, 'agent_issuer.binding_removed')).map((e) => e.data.binding_id)).toContain(
      first,
    );
    const removedEvents = await eventsOf(owner.tenantId, 'agent_issuer.removed');
    expect(removedEvents.find((e) => e.data.issuer_id === issuerId)?.data.bindings_removed).toHaveLength(1);
  });

  it('reads need agents:read, changes agents:manage, people only; another organization gets 404', async () => {
    const issuer = await issuers.issuer('admin-permissions');
    const issuerId = await trust(issuer);
    const agent = await registerAgent(svc, owner.token);
    const member = await addMember(svc, owner, 'member');
    const auditor = await addMember(svc, owner, 'auditor');
    const body = { issuer: 'https://secure.example.test/p2', jwks_uri: 'https://secure.example.test/p2/jwks' };

    expect((await request(api('/agents/issuers'), { token: member.token })).status).toBe(403);
    expect((await registerIssuer(member.token, body)).status).toBe(403);
    expect((await request(api('/agents/issuers'), { token: auditor.token })).status).toBe(200);
    expect((await registerIssuer(auditor.token, body)).status).toBe(403);
    const auditorPatch = await request(api(`/agents/issuers/${issuerId}`), {
      method: 'PATCH',
      token: auditor.token,
      json: { enabled: false },
    });
    expect(auditorPatch.status).toBe(403);

    // An API key holding agents:manage is still not a person.
    const key = await request(api('/tenants/api-keys'), {
      token: owner.token,
      json: { label: 'federation', scopes: ['agents:manage', 'agents:read'] },
    });
    expect(key.status, key.text).toBe(201);
    expect((await request(api('/agents/issuers'), { token: key.body.key })).status).toBe(403);
    expect((await registerIssuer(key.body.key, body)).status).toBe(403);

    const other = await signUpOwner(svc.url, 'other');
    const theirList = await request(api('/agents/issuers'), { token: other.token });
    expect(theirList.status).toBe(200);
    expect(theirList.body).toEqual([]);
    const attempts = [
      request(api(`/agents/issuers/${issuerId}`), { method: 'PATCH', token: other.token, json: { enabled: false } }),
      request(api(`/agents/issuers/${issuerId}/bindings`), {
        token: other.token,
        json: { agent_id: agent.agent_id, claims: { sub: 'x' } },
      }),
      request(api(`/agents/issuers/${issuerId}`), { method: 'DELETE', token: other.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    const mine = await request(api('/agents/issuers'), { token: owner.token });
    expect(mine.body.find((i: { id: string }) => i.id === issuerId)).toMatchObject({ enabled: true });
  });
});

describe('federated exchange', () => {
  it('exchanges an RS256 attestation for the same agent token as the credential mint', async () => {
    const gha = await issuers.issuer('exchange-rs');
    const issuerId = await trust(gha, 'github-actions');
    const agent = await registerAgent(svc, owner.token);
    const claims = { sub: 'repo:acme/app:environment:prod', repository: 'acme/app', environment: 'prod' };
    const bindingId = await bound(issuerId, agent.agent_id, claims);

    const attestation = await gha.sign({ ...claims, aud, ref: 'refs/heads/main', actor: 'octocat' }, { now: now() });
    const res = await exchange(owner.slug, attestation);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      agent_id: agent.agent_id,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');

    const classic = await mintAgentToken(svc, agent.credential);
    expect(classic.status, classic.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(classic.body).sort());
    const federated = decodeJwt(res.body.access_token);
    const minted = decodeJwt(classic.body.access_token);
    expect(Object.keys(federated).sort()).toEqual(Object.keys(minted).sort());
    expect(federated).toMatchObject({ act: 'agent', agent_id: agent.agent_id, tid: owner.tenantId });
    expect(decodeProtectedHeader(res.body.access_token)).toEqual(decodeProtectedHeader(classic.body.access_token));

    // The token authenticates as the agent: agent administration answers 403 (people only), not 401.
    const asAgent = await request(api('/agents/issuers'), { token: res.body.access_token });
    expect(asAgent.status).toBe(403);

    const exchanged = await eventsOf(owner.tenantId, 'agent_issuer.attestation_exchanged');
    expect(exchanged.map((event) => event.data)).toContainEqual(
      expect.objectContaining({ issuer_id: issuerId, binding_id: bindingId, agent_id: agent.agent_id }),
    );
    const mintedEvents = await eventsOf(owner.tenantId, 'agent.token_minted');
    expect(mintedEvents.map((event) => event.data)).toContainEqual(
      expect.objectContaining({ agent_id: agent.agent_id, via: 'federated' }),
    );
  });

  it('exchanges an ES256 attestation, bound to the DPoP key of a proof sent with it', async () => {
    const workload = await issuers.issuer('exchange-es', 'ES256');
    const issuerId = await trust(workload, 'kubernetes');
    const agent = await registerAgent(svc, owner.token);
    await bound(issuerId, agent.agent_id, { sub: 'system:serviceaccount:ci:deployer' });

    const plain = await exchange(
      owner.slug,
      await workload.sign({ sub: 'system:serviceaccount:ci:deployer', aud: [aud] }, { now: now() }),
    );
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.token_type).toBe('Bearer');

    const key = await newDpopKey();
    const url = svc.deps.dpop.urlOf('/api/v1/agents/token/federated');
    const proof = await key.proof('POST', url, { now: now() });
    const attestation = await workload.sign({ sub: 'system:serviceaccount:ci:deployer', aud }, { now: now() });
    const dpopBound = await exchange(owner.slug, attestation, { DPoP: proof });
    expect(dpopBound.status, dpopBound.text).toBe(200);
    expect(dpopBound.body.token_type).toBe('DPoP');
    expect(decodeJwt(dpopBound.body.access_token).cnf).toEqual({ jkt: await calculateJwkThumbprint(key.publicJwk) });
  });

  it('answers every refusal with the same 401, byte for byte, and records why for the organization', async () => {
    const gha = await issuers.issuer('refusals', 'RS256');
    const issuerId = await trust(gha, 'github-actions');
    const live = await registerAgent(svc, owner.token);
    await bound(issuerId, live.agent_id, { sub: 'repo:acme/live' });
    const agentIn = async (state: 'retired' | 'suspended' | 'killed', sub: string) => {
      const agent = await registerAgent(svc, owner.token);
      await bound(issuerId, agent.agent_id, { sub });
      const path = { retired: 'retire', suspended: 'suspend', killed: 'kill-switch' }[state];
      const body = state === 'killed' ? { engaged: true, reason: 'federation test' } : {};
      const res = await request(api(`/agents/${agent.agent_id}/${path}`), { token: owner.token, json: body });
      expect(res.status, res.text).toBe(200);
    };
    await agentIn('retired', 'repo:acme/retired');
    await agentIn('suspended', 'repo:acme/suspended');
    await agentIn('killed', 'repo:acme/killed');
    // Two bindings match an attestation carrying both claims: ambiguous.
    const twinA = await registerAgent(svc, owner.token);
    const twinB = await registerAgent(svc, owner.token);
    await bound(issuerId, twinA.agent_id, { sub: 'repo:acme/twin' });
    await bound(issuerId, twinB.agent_id, { sub: 'repo:acme/twin', repository: 'acme/twin' });

    const disabledIssuer = await issuers.issuer('refusals-disabled', 'ES256');
    const disabledId = await trust(disabledIssuer);
    await bound(disabledId, live.agent_id, { sub: 'repo:acme/live' });
    const patched = await request(api(`/agents/issuers/${disabledId}`), {
      method: 'PATCH',
      token: owner.token,
      json: { enabled: false },
    });
    expect(patched.status).toBe(200);
    const stranger = await issuers.issuer('refusals-unknown');

    const t = Math.floor(now().getTime() / 1000);
    const good = { sub: 'repo:acme/live', aud };
    const replayed = await gha.sign(good, { now: now() });
    expect((await exchange(owner.slug, replayed)).status).toBe(200);
    const key = await newDpopKey();

    const cases: Array<{ name: string; token: string; reason: RegExp | null; tenant?: string; dpop?: string }> = [
      {
        name: 'unknown organization',
        token: await gha.sign(good, { now: now() }),
        reason: null,
        tenant: 'no-such-org',
      },
      { name: 'unknown issuer', token: await stranger.sign(good, { now: now() }), reason: /unknown issuer/ },
      { name: 'disabled issuer', token: await disabledIssuer.sign(good, { now: now() }), reason: /issuer disabled/ },
      {
        name: 'RS384',
        token: await gha.sign(good, { now: now(), alg: 'RS384', key: 'RS256' }),
        reason: /ALG_NOT_ALLOWED/,
      },
      {
        name: 'alg none',
        token: handMade('none', { ...good, iss: gha.iss, iat: t, exp: t + 60, jti: 'n1' }),
        reason: /ALG_NOT_ALLOWED/,
      },
      {
        name: 'HS256',
        token: handMade('HS256', { ...good, iss: gha.iss, iat: t, exp: t + 60, jti: 'h1' }, gha.currentKid),
        reason: /ALG_NOT_ALLOWED/,
      },
      { name: 'bad signature', token: await gha.forge(good, { now: now() }), reason: /SIGNATURE/ },
      {
        name: 'wrong aud',
        token: await gha.sign({ ...good, aud: 'https://elsewhere.example.com' }, { now: now() }),
        reason: /aud/,
      },
      {
        name: 'two audiences',
        token: await gha.sign({ ...good, aud: [aud, 'https://elsewhere.example.com'] }, { now: now() }),
        reason: /aud/,
      },
      {
        name: 'lifetime above one hour',
        token: await gha.sign({ ...good, iat: t, exp: t + 3601 }, { now: now() }),
        reason: /lifetime/,
      },
      {
        name: 'expired',
        token: await gha.sign({ ...good, iat: t - 900, exp: t - 300 }, { now: now() }),
        reason: /EXPIRED/,
      },
      {
        name: 'issued in the future',
        token: await gha.sign({ ...good, iat: t + 600, exp: t + 900 }, { now: now() }),
        reason: /iat in the future/,
      },
      { name: 'missing jti', token: await gha.sign({ ...good, jti: undefined }, { now: now() }), reason: /CLAIM/ },
      { name: 'missing sub', token: await gha.sign({ ...good, sub: undefined }, { now: now() }), reason: /CLAIM/ },
      { name: 'replayed jti', token: replayed, reason: /jti already exchanged/ },
      {
        name: 'no binding',
        token: await gha.sign({ ...good, sub: 'repo:acme/other' }, { now: now() }),
        reason: /no binding/,
      },
      {
        name: 'two bindings',
        token: await gha.sign({ ...good, sub: 'repo:acme/twin', repository: 'acme/twin' }, { now: now() }),
        reason: /several bindings/,
      },
      {
        name: 'retired agent',
        token: await gha.sign({ ...good, sub: 'repo:acme/retired' }, { now: now() }),
        reason: /not live/,
      },
      {
        name: 'suspended agent',
        token: await gha.sign({ ...good, sub: 'repo:acme/suspended' }, { now: now() }),
        reason: /not live/,
      },
      {
        name: 'killed agent',
        token: await gha.sign({ ...good, sub: 'repo:acme/killed' }, { now: now() }),
        reason: /not live/,
      },
      { name: 'not a JWT', token: 'not-a-jwt', reason: null, tenant: 'no-such-org-either' },
      {
        name: 'broken DPoP proof',
        token: await gha.sign(good, { now: now() }),
        reason: /DPoP/,
        dpop: await key.proof('POST', 'https://elsewhere.example.com/token', { now: now() }),
      },
    ];

    // Each case must be refused for its own reason, not by accident: the organization's event after each says why.
    const refusedSoFar = async () =>
      rows<{ id: string; data: Record<string, any> }>(
        svc.deps.database.db,
        sql`select id, data from events
            where tenant_id = ${owner.tenantId} and action = 'agent_issuer.attestation_refused'`,
      );
    const answers: Array<{ name: string; res: JsonResponse }> = [];
    for (const c of cases) {
      const before = new Set((await refusedSoFar()).map((event) => event.id));
      const sent = performance.now();
      const res = await exchange(c.tenant ?? owner.slug, c.token, c.dpop ? { DPoP: c.dpop } : {});
      // Timing too: no refusal is answered before the fixed instant every refusal waits for.
      expect([c.name, performance.now() - sent >= REFUSAL_ANSWERED_AFTER_MS]).toEqual([c.name, true]);
      answers.push({ name: c.name, res });
      await svc.deps.afterAnswer.drain();
      const recorded = (await refusedSoFar()).filter((event) => !before.has(event.id));
      if (c.reason) {
        expect([c.name, recorded.map((event) => event.data.reason)]).toEqual([
          c.name,
          [expect.stringMatching(c.reason)],
        ]);
        // The attestation itself is never recorded.
        expect(JSON.stringify(recorded[0]!.data)).not.toContain('eyJ');
      } else {
        expect([c.name, recorded]).toEqual([c.name, []]);
      }
    }
    const reference = shape(answers[0]!.res);
    expect(reference.status).toBe(401);
    expect(JSON.parse(reference.body)).toEqual({ detail: 'Federated token exchange refused' });
    for (const { name, res } of answers) expect({ name, ...shape(res) }).toEqual({ name, ...reference });
  });

  it('fetches the key set again for an unknown kid (key rotation), never more often than the floor', async () => {
    const rotating = await issuers.issuer('rotation', 'ES256');
    const issuerId = await trust(rotating);
    const agent = await registerAgent(svc, owner.token);
    await bound(issuerId, agent.agent_id, { sub: 'rotating-workload' });
    const claims = { sub: 'rotating-workload', aud };

    expect((await exchange(owner.slug, await rotating.sign(claims, { now: now() }))).status).toBe(200);
    const fetchedOnce = rotating.jwksFetches;
    expect(fetchedOnce).toBe(1);
    expect((await exchange(owner.slug, await rotating.sign(claims, { now: now() }))).status).toBe(200);
    expect(rotating.jwksFetches).toBe(1);

    // Made-up key ids within the floor: refused, and the issuer is not asked again.
    for (let i = 0; i < 5; i++) {
      const forged = await rotating.forge(claims, { now: now(), kid: `made-up-${i}` });
      expect((await exchange(owner.slug, forged)).status).toBe(401);
    }
    expect(rotating.jwksFetches).toBe(1);

    svc.clock.advance(61_000);
    await rotating.rotate('RS256', { dropOld: true });
    const rotated = await exchange(owner.slug, await rotating.sign(claims, { now: now() }));
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotating.jwksFetches).toBe(2);
    const stillFloor = await rotating.forge(claims, { now: now(), kid: 'made-up-again' });
    expect((await exchange(owner.slug, stillFloor)).status).toBe(401);
    expect(rotating.jwksFetches).toBe(2);
  });

  it('refuses a jti replayed on a second node of the same database, and spends it once under concurrency', async () => {
    const ci = await issuers.issuer('two-nodes', 'ES256');
    const issuerId = await trust(ci, 'gitlab-ci');
    const agent = await registerAgent(svc, owner.token);
    await bound(issuerId, agent.agent_id, { sub: 'project_path:acme/app', project_path: 'acme/app' });
    const claims = { sub: 'project_path:acme/app', project_path: 'acme/app', aud };
    const second = await startSecondNode(svc);
    try {
      const attestation = await ci.sign(claims, { now: now() });
      expect((await exchange(owner.slug, attestation)).status).toBe(200);
      const replay = await exchange(owner.slug, attestation, {}, second.url);
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ detail: 'Federated token exchange refused' });

      const raced = await ci.sign(claims, { now: now() });
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => exchange(owner.slug, raced, {}, i % 2 ? second.url : svc.url)),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    } finally {
      await second.close();
    }
  });

  it('brakes failed exchanges per named organization and per issuer with 429, Retry-After and RateLimit', async () => {
    const braking = await signUpOwner(svc.url, 'brakes');
    const ci = await issuers.issuer('brakes', 'ES256');
    const issuerId = await trust(ci, 'generic', braking);
    const agent = await registerAgent(svc, braking.token);
    await bound(issuerId, agent.agent_id, { sub: 'braked' }, braking);
    const good = { sub: 'braked', aud };

    // 30 failures naming this issuer brake it: even a valid attestation is then 429, and its jti stays unspent.
    for (let i = 0; i < 30; i++) {
      const res = await exchange(braking.slug, await ci.sign({ ...good, sub: `nobody-${i}` }, { now: now() }));
      expect(res.status).toBe(401);
    }
    const valid = await ci.sign(good, { now: now() });
    const braked = await exchange(braking.slug, valid);
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(braked.headers.get('ratelimit-limit')).toBe('30');
    expect(braked.headers.get('ratelimit-remaining')).toBe('0');

    // Other issuers' names still pass the issuer brake, until the organization's brake (100) is spent too.
    for (let i = 0; i < 70; i++) {
      const res = await exchange(braking.slug, handMade('none', { iss: `https://secure.example.test/x${i}` }));
      expect(res.status).toBe(401);
    }
    const other = await exchange(braking.slug, handMade('none', { iss: 'https://secure.example.test/fresh' }));
    expect(other.status).toBe(429);
    expect(other.headers.get('ratelimit-limit')).toBe('100');
    expect(Number(other.headers.get('retry-after'))).toBeGreaterThan(0);

    // An organization that does not exist brakes the same way (the slug as named is the key).
    for (let i = 0; i < 30; i++) expect((await exchange('ghost-org', `junk-${i}`)).status).toBe(401);
    const ghost = await exchange('ghost-org', 'junk');
    expect(ghost.status).toBe(429);
    expect(ghost.headers.get('ratelimit-limit')).toBe('30');

    // The valid attestation refused by the brake was not spent.
    const spent = await rows(
      svc.deps.database.db,
      sql`select jti from agent_issuer_jtis where issuer_id = ${issuerId}`,
    );
    expect(spent).toEqual([]);
  });
});
