import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { canonicalJson } from '../../src/kernel/events/canonical-json.js';
import { request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import type { TestService } from '../support/service.js';
import {
  failSignInsSecondApart,
  type Owner,
  type PlatformOwner,
  startWithTwoOrganizations,
} from './command-support.js';

// The audit chain in the Command Center (issue 22 item 3; Part B 2.7, 4.8, 5.6): entries with compliance tags and
// hashes, confined like the events; verification from genesis for the platform operator, which names the entry
// an operator's SQL altered.

let svc: TestService;
let platform: PlatformOwner;
let alpha: Owner;
let beta: Owner;
beforeAll(async () => {
  ({ svc, platform, alpha, beta } = await startWithTwoOrganizations());
  await failSignInsSecondApart(svc, [alpha, alpha, beta]);
});
afterAll(async () => {
  await svc?.close();
});

interface Entry {
  seq: number;
  tenant_id: string | null;
  event_id: string;
  occurred_at: string;
  actor_id: string;
  actor_type: string;
  action: string;
  outcome: string;
  correlation_id: string | null;
  compliance_tags: string[];
  data: Record<string, unknown>;
  prev_hash: string;
  entry_hash: string;
}
const api = (path: string) => `${svc.url}/api/v1${path}`;
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const listAudit = (token: string, params: Record<string, string | number> = {}) =>
  request<{ entries: Entry[]; next_cursor: string | null; detail?: string }>(api(`/command/audit?${query(params)}`), {
    token,
  });
const verify = (token?: string) => request(api('/command/audit/verify'), token ? { token } : {});

/** The entry hash recomputed from what the list shows (SHA-256 over the previous hash and the canonical JSON). */
function recomputedHash(entry: Entry): string {
  const { prev_hash, entry_hash: _, ...hashed } = entry;
  return createHash('sha256')
    .update(`${prev_hash}\n${canonicalJson(hashed)}`)
    .digest('hex');
}

const entriesInChain = async () =>
  Number((await rows<{ n: string | number }>(svc.deps.database.db, sql`select count(*) as n from audit_log`))[0]!.n);

describe('GET /command/audit', () => {
  it('lists entries newest first with compliance tags and a hash anyone can recompute', async () => {
    const res = await listAudit(alpha.token, { action: 'user.login_failed' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.entries).toHaveLength(2);
    const [latest, earlier] = res.body.entries;
    expect(latest!.seq).toBeGreaterThan(earlier!.seq);
    expect(latest).toEqual({
      seq: expect.any(Number),
      tenant_id: alpha.tenantId,
      event_id: expect.any(String),
      occurred_at: expect.any(String),
      actor_id: alpha.userId,
      actor_type: 'human',
      action: 'user.login_failed',
      outcome: 'failure',
      correlation_id: null,
      compliance_tags: ['soc2:CC6.1', 'iso27001:A.8.5'],
      data: { user_id: alpha.userId },
      prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      entry_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const entry of res.body.entries) expect(recomputedHash(entry)).toBe(entry.entry_hash);
    // The entry records the event the list shows.
    const events = await request(api(`/command/events?action=user.login_failed`), { token: alpha.token });
    expect(events.body.events.map((e: { id: string }) => e.id)).toEqual(res.body.entries.map((e) => e.event_id));
  });

  it('links each entry to the one before it (the platform operator sees the whole chain)', async () => {
    const res = await listAudit(platform.token, { limit: 1000 });
    expect(res.status).toBe(200);
    const chain = res.body.entries;
    expect(chain.length).toBe(await entriesInChain());
    expect(chain[chain.length - 1]!.seq).toBe(1);
    expect(chain[chain.length - 1]!.prev_hash).toBe('0'.repeat(64));
    for (let i = 0; i < chain.length - 1; i++) {
      expect(chain[i]!.seq).toBe(chain[i + 1]!.seq + 1);
      expect(chain[i]!.prev_hash).toBe(chain[i + 1]!.entry_hash);
      expect(recomputedHash(chain[i]!)).toBe(chain[i]!.entry_hash);
    }
    expect(new Set(chain.map((e) => e.tenant_id))).toEqual(
      new Set([platform.tenantId, alpha.tenantId, beta.tenantId, ...chain.filter((e) => !e.tenant_id).map(() => null)]),
    );
  });

  it('filters by action and actor_id, pages with limit and next_cursor', async () => {
    const byActor = await listAudit(alpha.token, { actor_id: alpha.userId });
    expect(byActor.body.entries.length).toBeGreaterThanOrEqual(3);
    expect(byActor.body.entries.every((e) => e.actor_id === alpha.userId)).toBe(true);
    const both = await listAudit(alpha.token, { actor_id: alpha.userId, action: 'user.signed_up' });
    expect(both.body.entries.map((e) => e.action)).toEqual(['user.signed_up']);
    expect((await listAudit(alpha.token, { actor_id: beta.userId })).body.entries).toEqual([]);

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await listAudit(alpha.token, { limit: 1, ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBe(1);
      seen.push(page.body.entries[0]!.seq);
      cursor = page.body.next_cursor;
    } while (cursor && seen.length < 50);
    const whole = await listAudit(alpha.token);
    expect(seen).toEqual(whole.body.entries.map((e) => e.seq));
    expect(whole.body.next_cursor).toBeNull();
  });

  it('refuses a bad limit, actor_id or cursor with 422', async () => {
    const refusals: Array<Record<string, string | number>> = [
      { limit: 0 },
      { limit: 1001 },
      { actor_id: '' },
      { actor_id: 'a'.repeat(65) },
      { cursor: 'x' },
      { cursor: '0' },
    ];
    for (const params of refusals) {
      expect((await listAudit(alpha.token, params)).status, JSON.stringify(params)).toBe(422);
    }
    expect((await listAudit(alpha.token, { limit: 1000 })).status).toBe(200);
  });

  it("confines a member to their organization; the platform operator reads any organization's", async () => {
    const own = await listAudit(beta.token, { limit: 1000 });
    expect(own.body.entries.length).toBeGreaterThan(0);
    expect(own.body.entries.every((e) => e.tenant_id === beta.tenantId)).toBe(true);
    const other = await listAudit(beta.token, { tenant_id: alpha.tenantId });
    expect(other.status).toBe(403);
    const named = await listAudit(platform.token, { tenant_id: alpha.tenantId, limit: 1000 });
    expect(named.status).toBe(200);
    expect(named.body.entries.length).toBeGreaterThan(0);
    expect(named.body.entries.every((e) => e.tenant_id === alpha.tenantId)).toBe(true);
  });

  it('is read by an auditor; a member without command:read and an anonymous caller are refused', async () => {
    const auditor = await addMember(svc, alpha, 'auditor');
    expect((await listAudit(auditor.token)).status).toBe(200);
    const member = await addMember(svc, alpha, 'member');
    expect((await listAudit(member.token)).status).toBe(403);
    expect((await request(api('/command/audit'))).status).toBe(401);
  });
});

describe('GET /command/audit/verify', () => {
  it('needs platform-operator membership besides command:read', async () => {
    const owner = await verify(alpha.token);
    expect(owner.status).toBe(403);
    expect(owner.body.detail).toBe('Only members of the platform-operator organization may call this route');
    const auditor = await addMember(svc, alpha, 'auditor');
    expect((await verify(auditor.token)).status).toBe(403);
    const platformMember = await addMember(svc, platform, 'member');
    const noPermission = await verify(platformMember.token);
    expect(noPermission.status).toBe(403);
    expect(noPermission.body.detail).toBe('Missing permission: command:read');
    expect((await verify()).status).toBe(401);
    const platformAuditor = await addMember(svc, platform, 'auditor');
    expect((await verify(platformAuditor.token)).status).toBe(200);
  });

  it('verifies the whole chain from genesis', async () => {
    const res = await verify(platform.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true, entries: await entriesInChain(), broken_seq: null });
  });

  it('names the entry an operator altered directly in the database, and holds again once it is put back', async () => {
    const [target] = (await listAudit(alpha.token, { action: 'user.login_failed', limit: 1 })).body.entries;
    const [original] = await rows<{ data: Record<string, unknown> }>(
      svc.deps.database.db,
      sql`select data from audit_log where seq = ${target!.seq}`,
    );
    await svc.deps.database.db.execute(
      sql`update audit_log set data = ${JSON.stringify({ user_id: beta.userId })}::jsonb where seq = ${target!.seq}`,
    );
    const broken = await verify(platform.token);
    expect(broken.status).toBe(200);
    expect(broken.body).toEqual({ verified: false, entries: target!.seq - 1, broken_seq: target!.seq });

    await svc.deps.database.db.execute(
      sql`update audit_log set data = ${JSON.stringify(original!.data)}::jsonb where seq = ${target!.seq}`,
    );
    expect((await verify(platform.token)).body).toEqual({
      verified: true,
      entries: await entriesInChain(),
      broken_seq: null,
    });

    // Rewriting the altered entry's own hash to match does not hide it: the next entry's link no longer holds.
    const [first] = (await listAudit(beta.token, { action: 'user.signed_up' })).body.entries;
    const forged = recomputedHash({ ...first!, actor_type: 'system' });
    await svc.deps.database.db.execute(
      sql`update audit_log set actor_type = 'system', entry_hash = ${forged} where seq = ${first!.seq}`,
    );
    expect((await verify(platform.token)).body).toEqual({
      verified: false,
      entries: first!.seq,
      broken_seq: first!.seq + 1,
    });
  });
});
