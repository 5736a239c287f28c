import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../src/kernel/authz/plans.js';
import { request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

describe('GET /pricing', () => {
  it('is public and derives every plan’s features and caps from the catalogue', async () => {
    const res = await request(api('/pricing'));
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('USD');
    expect(typeof res.body.note).toBe('string');
    expect(res.body.plans.map((p: { plan_code: string }) => p.plan_code)).toEqual(['free', 'pro', 'enterprise']);
    for (const plan of res.body.plans) {
      const catalogue = PLANS[plan.plan_code as keyof typeof PLANS];
      expect(plan.features).toEqual([...catalogue.features]);
      expect(plan.caps).toEqual(catalogue.caps);
      expect(Object.keys(plan).sort()).toEqual(
        [
          'plan_code',
          'name',
          'price',
          'period',
          'blurb',
          'cta_label',
          'cta_href',
          'highlights',
          'popular',
          'published',
          'features',
          'caps',
        ].sort(),
      );
    }
    const enterprise = res.body.plans.find((p: { plan_code: string }) => p.plan_code === 'enterprise');
    expect(enterprise.caps.mau).toBeNull();
    expect(enterprise.caps.api_calls_monthly).toBeNull();
    expect(
      res.body.plans.find((p: { plan_code: string }) => p.plan_code === 'free').caps.oauth_client_requests_per_5min,
    ).toBe(60);
  });

  it('serves the stored content, which the operator plane can replace; unpublished plans are left out', async () => {
    const before = (await request(api('/pricing'))).body;
    await svc.deps.pricing.replace(
      {
        currency: 'EUR',
        note: 'Replaced',
        plans: before.plans.map((p: Record<string, unknown>) => {
          const { features: _f, caps: _c, ...content } = p;
          return { ...content, name: `${String(p.name)}!`, published: p.plan_code !== 'pro' };
        }),
      },
      'operator',
    );
    const after = (await request(api('/pricing'))).body;
    expect(after.currency).toBe('EUR');
    expect(after.note).toBe('Replaced');
    expect(after.plans.map((p: { plan_code: string }) => p.plan_code)).toEqual(['free', 'enterprise']);
    expect(after.plans[0].name).toBe('Free!');
    expect(after.plans[0].caps).toEqual(PLANS.free.caps);
    const { features: _f, caps: _c, ...freeContent } = after.plans[0];
    for (const [plans, detail] of [
      [[{ ...freeContent, plan_code: 'gold' }], /^plans\.0\.plan_code/],
      [[{ plan_code: 'free', name: 'Free', published: true }], /^plans\.0\.\w+: /],
      [[freeContent, freeContent], /^plans: plan_code free appears twice$/],
    ] as const) {
      await expect(svc.deps.pricing.replace({ currency: 'USD', note: '', plans } as never, 'op')).rejects.toMatchObject(
        {
          status: 422,
          detail: expect.stringMatching(detail),
        },
      );
    }
    // A refused replacement changed nothing: the public document still answers.
    const still = await request(api('/pricing'));
    expect(still.status).toBe(200);
    expect(still.body.note).toBe('Replaced');
  });
});

describe('GET /entitlements', () => {
  it('resolves the caller’s organization’s plan and follows a plan change', async () => {
    const { token, tenantId } = await signUpOwner(svc.url, 'pricing');
    const free = await request(api('/entitlements'), { token });
    expect(free.status).toBe(200);
    expect(free.body).toEqual({
      plan_code: 'free',
      name: 'Free',
      features: [...PLANS.free.features],
      caps: PLANS.free.caps,
    });
    await svc.deps.database.db.execute(sql`update tenants set plan = 'pro' where id = ${tenantId}`);
    const pro = await request(api('/entitlements'), { token });
    expect(pro.body.plan_code).toBe('pro');
    expect(pro.body.caps).toEqual(PLANS.pro.caps);
  });

  it('needs a credential', async () => {
    expect((await request(api('/entitlements'))).status).toBe(401);
    expect((await request(api('/entitlements'), { token: 'not-a-token' })).status).toBe(401);
  });
});
