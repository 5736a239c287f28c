import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/kernel/db/index.js';
import { EARLY_ACCESS_GLOBAL } from '../../src/modules/early-access/service.js';
import { RecordType, startDnsServer } from '../support/dns.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { extractLink, extractToken, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

let svc: TestService;
let smtp: TestSmtpServer;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  dns = await startDnsServer({
    'acme.test': [{ type: RecordType.MX, priority: 10, exchange: 'mx.acme.test' }],
    'nomx.test': [{ type: RecordType.A, address: '192.0.2.10' }],
    'nullmx.test': [{ type: RecordType.MX, priority: 0, exchange: '' }],
  });
  svc = await startService({
    SMTP_URL: smtp.url,
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    TRUST_PROXY: '1',
    BASE_URL: 'https://id.example.test',
  });
});
afterAll(async () => {
  await svc?.close();
  await smtp?.close();
  await dns?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;
let counter = 0;
const freshIp = () => {
  counter += 1;
  return `198.19.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
};

function form(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    email: `person${counter}-${Math.random().toString(36).slice(2, 8)}@acme.test`,
    full_name: 'Grace Hopper',
    role: 'Engineering lead',
    organization: 'Acme',
    app_name: 'Acme Portal',
    app_url: 'https://portal.acme.test',
    app_description: 'Customer portal',
    stage: 'building',
    platforms: ['web', 'api'],
    integrations: ['customer_oidc'],
    test_goals: 'Try customer sign-in',
    expected_users: '1k_10k',
    expected_agents: '1_5',
    timeline: 'next_quarter',
    consent: true,
    acknowledgement: true,
    consent_text_version: '2026-01',
    acknowledgement_text_version: '2026-01',
    intended_use: 'evaluation',
    source: 'newsletter',
    ...overrides,
  };
}

const submit = (body: Record<string, unknown>, ip = freshIp()) =>
  request(api('/early-access'), { json: body, headers: { 'x-forwarded-for': ip } });

const stored = (email: string) =>
  rows<{ submissions: number; consent: boolean; confirmed_at: string | null; stage: string }>(
    svc.deps.database.db,
    sql`select submissions, consent, confirmed_at, stage from early_access_requests where email_key = ${email.toLowerCase()}`,
  );

function shape(res: { status: number; text: string; headers: Headers }) {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'x-request-id'].includes(name)));
  return { status: res.status, text: res.text, headers };
}

describe('POST /early-access', () => {
  it('202 {"status":"accepted"} alike for a new and a repeat address; a confirmation mail with a working link', async () => {
    const body = form();
    const first = await submit(body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ status: 'accepted' });
    // Mail leaves after the answer, so wait for the first before asking again: their order is then known.
    const firstMail = await smtp.waitFor(body.email);
    const repeat = await submit({ ...body, stage: 'production' });
    expect(shape(repeat)).toEqual(shape(first));
    expect([...first.headers.keys()].some((name) => /ratelimit|retry-after/i.test(name))).toBe(false);
    expect(await stored(body.email)).toEqual([
      expect.objectContaining({ submissions: 2, consent: true, confirmed_at: null, stage: 'production' }),
    ]);

    // The repeat's mail carries the current link (the first link was replaced).
    const secondMail = await smtp.waitFor(body.email);
    expect(extractLink(secondMail.text)).toMatch(/^https:\/\/id\.example\.test\/early-access\/confirm\?token=/);
    expect(
      (await request(api('/early-access/confirm'), { json: { token: extractToken(firstMail.text) } })).status,
    ).toBe(400);
    const confirmed = await request(api('/early-access/confirm'), { json: { token: extractToken(secondMail.text) } });
    expect(confirmed.status).toBe(204);
    expect((await stored(body.email))[0]!.confirmed_at).not.toBeNull();
    expect(
      (await request(api('/early-access/confirm'), { json: { token: extractToken(secondMail.text) } })).status,
    ).toBe(400);
  });

  it('422 and nothing stored when consent or acknowledgement is false (or merely true-ish)', async () => {
    for (const [flag, value] of [
      ['consent', false],
      ['acknowledgement', false],
      ['consent', 'true'],
      ['acknowledgement', 1],
    ] as const) {
      const body = form({ [flag]: value });
      const res = await submit(body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(new RegExp(`^${flag}`));
      expect(await stored(body.email)).toEqual([]);
    }
  });

  it('422 naming the field for missing fields, bad enums, empty integrations, unknown fields', async () => {
    const { full_name: _dropped, ...missing } = form();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [missing, /^full_name/],
      [form({ stage: 'someday' }), /^stage/],
      [form({ platforms: ['desktop'] }), /^platforms/],
      [form({ integrations: [] }), /^integrations/],
      [form({ expected_users: 'lots' }), /^expected_users/],
      [form({ expected_agents: '7' }), /^expected_agents/],
      [form({ timeline: 'never' }), /^timeline/],
      [form({ consent_text_version: undefined }), /^consent_text_version/],
      [form({ app_url: 'javascript:alert(1)' }), /^app_url/],
      [form({ favourite_colour: 'blue' }), /favourite_colour/],
    ];
    for (const [body, detail] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
  });

  it('400 for a disposable domain or a domain without a mail exchanger; nothing stored', async () => {
    for (const email of [
      'someone@mailinator.com',
      'someone@sub.mailinator.com',
      'a@nomx.test',
      'a@nullmx.test',
      'a@nxdomain.test',
    ]) {
      const res = await submit(form({ email }));
      expect(res.status, email).toBe(400);
      expect(await stored(email)).toEqual([]);
    }
    expect((await submit(form({ email: 'someone@mailinator.com' }))).body.detail).toMatch(/disposable/i);
  });

  it('429 with the rate headers past the per-IP budget', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await submit(form(), ip)).status).toBe(202);
    const refused = await submit(form(), ip);
    expect(refused.status).toBe(429);
    for (const name of ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      expect(refused.headers.get(name), name).toMatch(/^\d+$/);
    }
    expect((await submit(form())).status).toBe(202);
  });

  it('429 past the global budget, from any address (checked last: it spends the whole window)', async () => {
    await svc.deps.limiter.consume(EARLY_ACCESS_GLOBAL, 'all', EARLY_ACCESS_GLOBAL.points);
    const body = form();
    const refused = await submit(body);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(EARLY_ACCESS_GLOBAL.points));
    expect(await stored(body.email)).toEqual([]);
  });
});
