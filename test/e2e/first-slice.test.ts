import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { newAccount, request } from '../support/http.js';
import { changeDirectly, startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');

interface Pair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

async function signUp() {
  const account = newAccount();
  const res = await request<Pair>(api('/auth/signup'), { json: account });
  expect(res.status).toBe(201);
  return { account, slug: slugOf(account.organization_name), tokens: res.body };
}

const me = (token: string) => request(api('/me'), { token });
const refresh = (token: string) => request<Pair>(api('/auth/refresh'), { json: { refresh_token: token } });

describe('POST /auth/signup', () => {
  it('creates the owner, the organization and a session; /me reads it from the database', async () => {
    const { tokens } = await signUp();
    expect(tokens).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
    });
    const res = await me(tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      tenant_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: 'owner',
      is_owner: true,
      tenant_isolation: 'pooled',
      population: 'workforce',
      email_verified: false,
    });
  });

  it('derives the slug from the name: lowercased, words joined by hyphens', async () => {
    const account = {
      ...newAccount(),
      organization_name: `  Acme Rocket  Works ${Math.random().toString(36).slice(2, 10)}`,
    };
    expect((await request(api('/auth/signup'), { json: account })).status).toBe(201);
    const login = await request(api('/auth/login'), {
      json: {
        email: account.email,
        password: account.password,
        tenant_slug: `acme-rocket-works-${account.organization_name.split(' ').pop()}`,
      },
    });
    expect(login.status).toBe(200);
  });

  it('refuses a registered email and a taken organization name with 409, changing nothing', async () => {
    const { account } = await signUp();
    const sameEmail = await request(api('/auth/signup'), {
      json: { ...newAccount(), email: account.email.toUpperCase() },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.detail).toMatch(/email/i);
    const other = newAccount();
    const sameName = await request(api('/auth/signup'), {
      json: { ...other, organization_name: account.organization_name.toUpperCase() },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body.detail).toMatch(/organization name/i);
    // Nothing of the refused sign-up was stored: the email can still sign up.
    expect((await request(api('/auth/signup'), { json: other })).status).toBe(201);
  });

  it('refuses weak passwords with 400: too short, too long, well-known', async () => {
    for (const password of ['short pass1', 'x'.repeat(129), 'password1234', 'QWERTY123456']) {
      const res = await request(api('/auth/signup'), { json: { ...newAccount(), password } });
      expect(res.status, password).toBe(400);
      expect(res.body.detail).toMatch(/password/i);
    }
  });

  it('answers 422 naming the missing or malformed field', async () => {
    const { organization_name: _dropped, ...missing } = newAccount();
    const res = await request(api('/auth/signup'), { json: missing });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^organization_name/);
    const badEmail = await request(api('/auth/signup'), { json: { ...newAccount(), email: 'not-an-email' } });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.detail).toMatch(/^email/);
    const longName = await request(api('/auth/signup'), {
      json: { ...newAccount(), organization_name: 'n'.repeat(256) },
    });
    expect(longName.status).toBe(422);
    expect(longName.body.detail).toMatch(/^organization_name/);
  });

  it('emits user.signed_up into the event log, the audit chain and the webhook outbox', async () => {
    const { tokens } = await signUp();
    const { tenant_id, user_id } = (await me(tokens.access_token)).body;
    const events = await rows<{ action: string; actor_id: string }>(
      svc.deps.database.db,
      sql`select action, actor_id from events where tenant_id = ${tenant_id}`,
    );
    expect(events).toContainEqual({ action: 'user.signed_up', actor_id: user_id });
    const audit = await rows<{ action: string }>(
      svc.deps.database.db,
      sql`select action from audit_log where tenant_id = ${tenant_id}`,
    );
    expect(audit.map((a) => a.action)).toContain('user.signed_up');
    const outbox = await rows<{ payload: { type: string; schema_version: number; data: Record<string, unknown> } }>(
      svc.deps.database.db,
      sql`select payload from webhook_outbox where tenant_id = ${tenant_id}`,
    );
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.payload).toMatchObject({ type: 'user.signed_up', schema_version: 1, data: { user_id } });
  });
});

describe('POST /auth/login', () => {
  it('signs in and answers one uniform 401 for a wrong password, an unknown email or organization', async () => {
    const { account, slug } = await signUp();
    const ok = await request<Pair>(api('/auth/login'), {
      json: { email: account.email, password: account.password, tenant_slug: slug },
    });
    expect(ok.status).toBe(200);
    expect((await me(ok.body.access_token)).status).toBe(200);

    const failures = await Promise.all([
      request(api('/auth/login'), {
        json: { email: account.email, password: 'wrong password 123', tenant_slug: slug },
      }),
      request(api('/auth/login'), {
        json: { email: 'nobody@example.com', password: account.password, tenant_slug: slug },
      }),
      request(api('/auth/login'), {
        json: { email: account.email, password: account.password, tenant_slug: 'no-such-org' },
      }),
    ]);
    for (const res of failures) {
      expect(res.status).toBe(401);
      expect(res.text).toBe('{"detail":"Invalid credentials"}');
    }
  });
});

describe('POST /auth/refresh', () => {
  it('rotates: the new pair works and the old refresh token is spent', async () => {
    const { tokens } = await signUp();
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await me(rotated.body.access_token)).status).toBe(200);
  });

  it('a rotated token presented again revokes the whole session and raises a detection', async () => {
    const { tokens } = await signUp();
    const { tenant_id } = (await me(tokens.access_token)).body;
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);

    const replay = await refresh(tokens.refresh_token);
    expect(replay.status).toBe(401);
    // Every token of the session is dead: the access tokens, and the refresh token the thief did not use.
    expect((await me(rotated.body.access_token)).status).toBe(401);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(rotated.body.refresh_token)).status).toBe(401);

    const detections = await rows<{ rule_id: string; count: number }>(
      svc.deps.database.db,
      sql`select rule_id, count from detections where tenant_id = ${tenant_id}`,
    );
    expect(detections).toEqual([{ rule_id: 'refresh-token-replay', count: 1 }]);
  });

  it('deduplicates repeated replays of one user into one detection group with a count', async () => {
    const { account, slug, tokens } = await signUp();
    const { tenant_id } = (await me(tokens.access_token)).body;
    for (let i = 0; i < 2; i++) {
      const login = await request<Pair>(api('/auth/login'), {
        json: { email: account.email, password: account.password, tenant_slug: slug },
      });
      expect((await refresh(login.body.refresh_token)).status).toBe(200);
      expect((await refresh(login.body.refresh_token)).status).toBe(401);
    }
    const detections = await rows<{ count: number; first_seen: Date; last_seen: Date }>(
      svc.deps.database.db,
      sql`select count, first_seen, last_seen from detections where tenant_id = ${tenant_id}`,
    );
    expect(detections).toHaveLength(1);
    expect(detections[0]!.count).toBe(2);
  });

  it('refuses unknown, missing and expired refresh tokens with 401', async () => {
    expect((await refresh('not-a-token')).status).toBe(401);
    expect((await request(api('/auth/refresh'), { json: {} })).status).toBe(401);
    const { tokens } = await signUp();
    svc.clock.advance(8 * 24 * 3600 * 1000); // past the 7-day workforce lifetime
    try {
      expect((await refresh(tokens.refresh_token)).status).toBe(401);
    } finally {
      svc.clock.advance(-8 * 24 * 3600 * 1000);
    }
  });
});

describe('POST /auth/logout', () => {
  it('revokes the session: its access token is refused on next use, its refresh token too', async () => {
    const { tokens } = await signUp();
    const out = await request(api('/auth/logout'), { method: 'POST', token: tokens.access_token });
    expect(out.status).toBe(204);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
    expect((await request(api('/auth/logout'), { method: 'POST', token: tokens.access_token })).status).toBe(401);
  });

  it('needs a token', async () => {
    const res = await request(api('/auth/logout'), { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Not authenticated' });
  });
});

describe('GET /me', () => {
  it('refuses missing, malformed, tampered and expired tokens', async () => {
    const { tokens } = await signUp();
    expect((await request(api('/me'))).status).toBe(401);
    expect((await me('garbage')).status).toBe(401);
    const [h, p, s] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, tid: '00000000-0000-7000-8000-000000000000' })).toString(
      'base64url',
    );
    expect((await me(`${h}.${forged}.${s}`)).status).toBe(401);
    svc.clock.advance(16 * 60 * 1000);
    try {
      expect((await me(tokens.access_token)).status).toBe(401);
    } finally {
      svc.clock.advance(-16 * 60 * 1000);
    }
    expect((await me(tokens.access_token)).status).toBe(200);
  });

  it('refuses the token once the membership is no longer active', async () => {
    const { tokens } = await signUp();
    const { tenant_id, user_id } = (await me(tokens.access_token)).body;
    await changeDirectly(
      svc,
      sql`update memberships set status = 'suspended' where tenant_id = ${tenant_id} and user_id = ${user_id}`,
    );
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
  });
});
