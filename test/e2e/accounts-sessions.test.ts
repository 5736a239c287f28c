import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { addMember } from '../support/organizations.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';
import { accountsHarness, freshIp, type Pair } from './accounts-support.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ TRUST_PROXY: '1' });
});
afterAll(async () => {
  await svc?.close();
});

const { api, signUp, logIn, me, refresh, db, eventsOf, outboxOf } = accountsHarness(() => svc);

const wrongLogin = (email: string, slug: string, ip: string) =>
  request(api('/auth/login'), {
    json: { email, password: 'definitely the wrong one', tenant_slug: slug },
    headers: { 'x-forwarded-for': ip },
  });

describe('sign-in throttling', () => {
  it('per account: 429 with rate headers after 10 failures, user.login_throttled without the IP', async () => {
    const { account, slug, tenantId, userId } = await signUp();
    for (let i = 0; i < 10; i++) expect((await wrongLogin(account.email, slug, freshIp())).status).toBe(401);
    // Even the right password is refused while throttled, from any address.
    const refused = await logIn(account, slug);
    expect(refused.status).toBe(429);
    for (const name of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      expect(refused.headers.get(name), name).toMatch(/^\d+$/);
    }
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    // Recorded after the answer (a known account must not answer slower than an unknown one).
    await expect.poll(async () => (await eventsOf(tenantId, 'user.login_throttled')).length).toBeGreaterThan(0);
    const throttled = await eventsOf(tenantId, 'user.login_throttled');
    const data = throttled[0]!.data;
    expect(Object.keys(data).sort()).toEqual(['actor_type', 'occurred_at', 'user_id']);
    expect(data.user_id).toBe(userId);
    expect(data.actor_type).toBe('human');
    expect(data.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    expect(JSON.stringify(throttled)).not.toMatch(/198\.18\./);
    await expect.poll(async () => (await outboxOf(tenantId, 'user.login_throttled')).length).toBeGreaterThan(0);
    const webhook = await outboxOf(tenantId, 'user.login_throttled');
    expect(webhook[0]!.payload.data).toEqual(data);
    // Further throttled attempts in the same window record nothing more (no event or webhook flood).
    for (let i = 0; i < 3; i++) expect((await wrongLogin(account.email, slug, freshIp())).status).toBe(429);
    await svc.deps.afterAnswer.drain();
    expect(await eventsOf(tenantId, 'user.login_throttled')).toHaveLength(1);
    expect(await outboxOf(tenantId, 'user.login_throttled')).toHaveLength(1);
  });

  it('per account whatever the spelling: spaced or cased slugs and cased emails share one budget (issue 17)', async () => {
    const { account, slug } = await signUp();
    const spellings = [
      [account.email, ` ${slug}`],
      [account.email, `${slug} `],
      [account.email, slug.toUpperCase()],
      [account.email.toUpperCase(), `\t${slug}`],
      [account.email.toUpperCase(), ` ${slug.toUpperCase()} `],
    ] as const;
    for (let i = 0; i < 10; i++) {
      const [email, tenantSlug] = spellings[i % spellings.length]!;
      expect((await wrongLogin(email, tenantSlug, freshIp())).status, JSON.stringify(tenantSlug)).toBe(401);
    }
    for (const [email, tenantSlug] of [...spellings, [account.email, slug]] as const) {
      const refused = await wrongLogin(email, tenantSlug, freshIp());
      expect(refused.status, JSON.stringify(tenantSlug)).toBe(429);
      expect(refused.headers.get('ratelimit-limit')).toBe('10');
    }
    expect((await logIn(account, ` ${slug}`)).status).toBe(429);
  });

  it('an unknown account is throttled alike, whatever the spelling (enumeration safety)', async () => {
    const { account, slug } = await signUp();
    const known = account.email;
    const unknown = `nobody-${freshIp()}@example.com`;
    const answers: Record<string, Array<Awaited<ReturnType<typeof wrongLogin>>>> = { known: [], unknown: [] };
    for (let i = 0; i < 11; i++) {
      const tenantSlug = i % 2 === 0 ? ` ${slug}` : slug.toUpperCase();
      answers.known!.push(await wrongLogin(i % 3 === 0 ? known.toUpperCase() : known, tenantSlug, freshIp()));
      answers.unknown!.push(await wrongLogin(i % 3 === 0 ? unknown.toUpperCase() : unknown, tenantSlug, freshIp()));
    }
    for (const [i, res] of answers.known!.entries()) {
      const other = answers.unknown![i]!;
      expect([res.status, other.status]).toEqual(i < 10 ? [401, 401] : [429, 429]);
      expect(other.text).toBe(res.text);
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'www-authenticate', 'content-type']) {
        expect(other.headers.get(name), name).toBe(res.headers.get(name));
      }
    }
  });

  it('a successful sign-in clears the account counter', async () => {
    const { account, slug } = await signUp();
    for (let i = 0; i < 9; i++) expect((await wrongLogin(account.email, slug, freshIp())).status).toBe(401);
    expect((await logIn(account, slug)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await wrongLogin(account.email, slug, freshIp())).status).toBe(401);
    expect((await logIn(account, slug)).status).toBe(200);
  });

  it('per IP: 429 after 50 failures from one address, whatever the accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) {
      expect((await wrongLogin(`nobody${i}@example.com`, 'no-such-org', ip)).status).toBe(401);
    }
    const refused = await wrongLogin('nobody@example.com', 'no-such-org', ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe('50');
    expect((await wrongLogin('nobody@example.com', 'no-such-org', freshIp())).status).toBe(401);
  });
});

describe('SSO-required organizations', () => {
  it('403 after the password verifies, except for the owner (break-glass); wrong passwords stay 401', async () => {
    const owner = await signUp();
    const member = newAccount('member');
    await enableAndJoinMember(owner.tenantId, member);
    await db().execute(sql`update tenants set sso_required = true where id = ${owner.tenantId}`);
    const refused = await logIn(member, owner.slug);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/single sign-on/);
    expect((await wrongLogin(member.email, owner.slug, freshIp())).status).toBe(401);
    expect((await logIn(owner.account, owner.slug)).status).toBe(200);
  });
});

/** A second, member-role person in the organization (customer sign-up, then promoted to member by SQL). */
async function enableAndJoinMember(tenantId: string, person: { email: string; password: string }) {
  await db().execute(
    sql`insert into tenant_settings (tenant_id, key, value, updated_at)
        values (${tenantId}, 'auth.ciam_signup_enabled', 'true'::jsonb, ${new Date()}) on conflict do nothing`,
  );
  const slug = (await db().execute(sql`select slug from tenants where id = ${tenantId}`)) as unknown as {
    rows: Array<{ slug: string }>;
  };
  const res = await request<Pair>(api('/auth/signup/customer'), {
    json: { email: person.email, password: person.password, tenant_slug: slug.rows[0]!.slug },
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(res.status).toBe(201);
  await changeDirectly(
    svc,
    sql`update memberships set role = 'member', population = 'workforce'
        where tenant_id = ${tenantId} and user_id = (select id from users where email = ${person.email})`,
  );
  return res.body;
}

describe('POST /auth/sign-out-all', () => {
  it('kills every access and refresh token of every session, and emits user.sessions_revoked', async () => {
    const { account, slug, tokens, tenantId, userId } = await signUp();
    const second = (await logIn(account, slug)).body;
    const out = await request(api('/auth/sign-out-all'), { method: 'POST', token: second.access_token });
    expect(out.status).toBe(204);
    for (const pair of [tokens, second]) {
      expect((await me(pair.access_token)).status).toBe(401);
      expect((await refresh(pair.refresh_token!)).status).toBe(401);
    }
    expect((await logIn(account, slug)).status).toBe(200);
    const events = await eventsOf(tenantId, 'user.sessions_revoked');
    expect(events[0]!.data).toMatchObject({ user_id: userId });
    expect((await outboxOf(tenantId, 'user.sessions_revoked')).length).toBe(1);
    expect((await request(api('/auth/sign-out-all'), { method: 'POST' })).status).toBe(401);
  });
});

describe('account-wide revocation across organizations', () => {
  it('sign-out-all and change-password in one organization end the sessions in every other one', async () => {
    const owner = await signUp();
    const elsewhere = await signUp();
    const person = { userId: owner.userId, email: owner.account.email, password: owner.account.password };
    const there = await addMember(svc, { tenantId: elsewhere.tenantId, slug: elsewhere.slug }, 'member', person);
    expect((await me(there.token)).status).toBe(200);
    // The same person's session in the other organization is not reachable from this one.
    const listed = await request(api('/me/sessions'), { token: there.token });
    const thereSid = listed.body.sessions.find((s: { current: boolean }) => s.current).session_id;
    const home = await request(api('/me/sessions'), { token: owner.tokens.access_token });
    expect(home.body.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(thereSid);
    const cross = await request(api(`/me/sessions/${thereSid}`), {
      method: 'DELETE',
      token: owner.tokens.access_token,
    });
    expect(cross.status).toBe(404);
    expect((await me(there.token)).status).toBe(200);
    const out = await request(api('/auth/sign-out-all'), { method: 'POST', token: owner.tokens.access_token });
    expect(out.status).toBe(204);
    expect((await me(there.token)).status).toBe(401);

    const again = (await logIn(owner.account, elsewhere.slug)).body;
    const signedIn = (await logIn(owner.account, owner.slug)).body;
    const changed = await request<Pair>(api('/auth/change-password'), {
      token: signedIn.access_token,
      json: { current_password: owner.account.password, new_password: 'a new cross-organization phrase' },
    });
    expect(changed.status).toBe(200);
    expect((await me(again.access_token)).status).toBe(401);
    expect((await refresh(again.refresh_token!)).status).toBe(401);
    expect((await me(changed.body.access_token)).status).toBe(200);
  });
});

describe('GET /me/sessions and DELETE /me/sessions/{sid}', () => {
  it('lists live sessions with the current one flagged, and ends one; foreign and dead answer one 404', async () => {
    const { account, slug, tokens } = await signUp();
    const phone = await request<Pair>(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug },
      headers: { 'x-forwarded-for': freshIp(), 'user-agent': 'PhoneBrowser/1.0' },
    });
    const list = await request(api('/me/sessions'), { token: tokens.access_token });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    const current = list.body.sessions.find((s: { current: boolean }) => s.current);
    const other = list.body.sessions.find((s: { current: boolean }) => !s.current);
    expect(other).toMatchObject({
      user_agent: 'PhoneBrowser/1.0',
      methods: ['pwd'],
      dpop_bound: false,
      created_at: expect.stringMatching(/Z$/),
      last_used_at: expect.stringMatching(/Z$/),
      expires_at: expect.stringMatching(/Z$/),
    });

    const stranger = await signUp();
    const foreign = await request(api(`/me/sessions/${current.session_id}`), {
      method: 'DELETE',
      token: stranger.tokens.access_token,
    });
    const ended = await request(api(`/me/sessions/${other.session_id}`), {
      method: 'DELETE',
      token: tokens.access_token,
    });
    expect(ended.status).toBe(204);
    expect((await me(phone.body.access_token)).status).toBe(401);
    expect((await refresh(phone.body.refresh_token!)).status).toBe(401);
    const dead = await request(api(`/me/sessions/${other.session_id}`), {
      method: 'DELETE',
      token: tokens.access_token,
    });
    const garbage = await request(api('/me/sessions/not-a-uuid'), { method: 'DELETE', token: tokens.access_token });
    for (const res of [foreign, dead, garbage]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe(dead.text);
    }
    expect((await request(api('/me/sessions'), { token: tokens.access_token })).body.sessions).toHaveLength(1);
    expect((await me(tokens.access_token)).status).toBe(200);
  });
});

describe('GET /me/activity', () => {
  it('shows the caller’s own events, newest first, with limit default 50 and max 100', async () => {
    const { account, slug, tokens, tenantId } = await signUp();
    for (let i = 0; i < 3; i++) expect((await logIn(account, slug)).status).toBe(200);
    const other = await signUp();
    const res = await request(api('/me/activity'), { token: tokens.access_token });
    expect(res.status).toBe(200);
    const actions = res.body.events.map((e: { action: string }) => e.action);
    expect(actions[0]).toBe('user.logged_in');
    expect(actions).toContain('user.signed_up');
    expect(res.body.events.every((e: { data: { user_id?: string } }) => e.data.user_id !== other.userId)).toBe(true);
    expect((await request(api('/me/activity?limit=2'), { token: tokens.access_token })).body.events).toHaveLength(2);
    expect((await request(api('/me/activity?limit=101'), { token: tokens.access_token })).status).toBe(422);
    expect((await request(api('/me/activity?limit=0'), { token: tokens.access_token })).status).toBe(422);
    // Default 50: more events than that exist once 55 sign-ins are recorded.
    await db().execute(
      sql`insert into events (id, tenant_id, occurred_at, actor_id, actor_type, subject_user_id, category, action,
            severity, outcome, data)
          select gen_random_uuid(), ${tenantId}, now() - interval '1 day', ${other.userId}, 'human',
                 (select subject_user_id from events where tenant_id = ${tenantId} limit 1),
                 'auth', 'user.logged_in', 'info', 'success', '{}'::jsonb
          from generate_series(1, 60)`,
    );
    expect((await request(api('/me/activity'), { token: tokens.access_token })).body.events).toHaveLength(50);
    expect((await request(api('/me/activity?limit=100'), { token: tokens.access_token })).body.events.length).toBe(
      res.body.events.length + 60,
    );
  });
});

describe('GET /me/activity isolation', () => {
  it('leaves out other people’s events in the organization and the caller’s events in other organizations', async () => {
    const owner = await signUp();
    const colleague = await addMember(svc, { tenantId: owner.tenantId, slug: owner.slug }, 'member');
    const elsewhere = await signUp();
    // The owner also belongs to a second organization and signs in there.
    const there = await addMember(svc, { tenantId: elsewhere.tenantId, slug: elsewhere.slug }, 'member', {
      userId: owner.userId,
      email: owner.account.email,
      password: owner.account.password,
    });
    await request(api('/auth/sign-out-all'), { method: 'POST', token: colleague.token });
    const res = await request(api('/me/activity?limit=100'), { token: owner.tokens.access_token });
    expect(res.status).toBe(200);
    const ids = (res.body.events as Array<{ id: string }>).map((e) => e.id);
    const own = await rows<{ id: string }>(
      db(),
      sql`select id from events where tenant_id = ${owner.tenantId} and subject_user_id = ${owner.userId}`,
    );
    expect(ids.sort()).toEqual(own.map((e) => e.id).sort());
    const foreign = await rows<{ id: string }>(
      db(),
      sql`select id from events where (tenant_id = ${owner.tenantId} and subject_user_id = ${colleague.userId})
            or (tenant_id = ${elsewhere.tenantId} and subject_user_id = ${owner.userId})`,
    );
    expect(foreign.length).toBeGreaterThan(1);
    for (const event of foreign) expect(ids).not.toContain(event.id);
    // From the other organization the same person sees only what happened there.
    const fromThere = await request(api('/me/activity'), { token: there.token });
    expect(fromThere.body.events.map((e: { action: string }) => e.action)).toEqual(['user.logged_in']);
  });
});

describe('GET /me/permissions', () => {
  it('the owner holds every permission; a member holds the baseline', async () => {
    const owner = await signUp();
    const res = await request(api('/me/permissions'), { token: owner.tokens.access_token });
    expect(res.status).toBe(200);
    expect(res.body.is_owner).toBe(true);
    expect(res.body.permissions).toEqual(
      expect.arrayContaining(['tenant:manage', 'members:manage', 'identity:self:write']),
    );
    const member = newAccount('member');
    const pair = await enableAndJoinMember(owner.tenantId, member);
    const memberView = await request(api('/me/permissions'), { token: pair.access_token });
    expect(memberView.body.is_owner).toBe(false);
    expect(memberView.body.permissions).toContain('identity:self:write');
    expect(memberView.body.permissions).not.toContain('tenant:manage');
    expect((await request(api('/me/permissions'))).status).toBe(401);
  });
});

describe('GET|PATCH /me/profile', () => {
  it('reads and changes names; email and picture are not editable', async () => {
    const { account, tokens } = await signUp();
    const before = await request(api('/me/profile'), { token: tokens.access_token });
    expect(before.body).toEqual({
      email: account.email,
      name: null,
      given_name: null,
      family_name: null,
      picture: null,
      editable: true,
    });
    const patched = await request(api('/me/profile'), {
      method: 'PATCH',
      token: tokens.access_token,
      json: { name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' });
    for (const field of ['email', 'picture']) {
      const res = await request(api('/me/profile'), {
        method: 'PATCH',
        token: tokens.access_token,
        json: { [field]: 'x@example.com' },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(`^${field}`));
    }
    expect((await request(api('/me/profile'), { token: tokens.access_token })).body.email).toBe(account.email);
  });

  it('422 for too-long names or control characters, changing nothing', async () => {
    const { tokens } = await signUp();
    for (const json of [
      { name: 'n'.repeat(256) },
      { given_name: 'Ada\u0000' },
      { family_name: 'Love\nlace' },
      { name: 'a\u202eb' },
      { name: 'n'.repeat(5000) },
    ]) {
      const res = await request(api('/me/profile'), { method: 'PATCH', token: tokens.access_token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(`^${Object.keys(json)[0]}`));
    }
    expect((await request(api('/me/profile'), { token: tokens.access_token })).body.name).toBe(null);
  });

  it('409 when an identity provider manages the profile (editable false)', async () => {
    const { tokens, userId } = await signUp();
    await db().execute(sql`update users set profile_source = 'scim' where id = ${userId}`);
    expect((await request(api('/me/profile'), { token: tokens.access_token })).body.editable).toBe(false);
    const res = await request(api('/me/profile'), { method: 'PATCH', token: tokens.access_token, json: { name: 'X' } });
    expect(res.status).toBe(409);
  });
});
