import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePolicies } from '../../src/kernel/auth/index.js';
import { newId } from '../../src/kernel/ids.js';
import { observableAnswer, request } from '../support/http.js';
import { signUpOwner } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';

// Payment step-up switched off (PAYMENTS_STEPUP_ENABLED false, the default; issue 25 item 1, Part B 4.7): every route,
// whatever the method, answers 404 exactly like an unknown path, before its body is read or validated and before
// authentication.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

describe('payment step-up switched off', () => {
  it('answers every payments route and method 404, identical to an unknown path, before validation', async () => {
    const owner = await signUpOwner(svc.url, 'paydormant');
    const key = await request(`${svc.url}/api/v1/tenants/api-keys`, {
      token: owner.token,
      json: { label: 'back end', scopes: ['payments:verify'] },
    });
    expect(key.status, key.text).toBe(201);
    const paths = [
      ...new Set(
        routePolicies(svc.app)
          .filter((route) => route.url.startsWith('/api/v1/payments'))
          .map((route) => route.url.replace(/:[a-z_]+/g, newId())),
      ),
    ];
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/payments/step-up',
        '/api/v1/payments/sca/challenge',
        expect.stringMatching(/^\/api\/v1\/payments\/step-up\/[0-9a-f-]{36}\/webauthn-options$/),
        expect.stringMatching(/^\/api\/v1\/payments\/step-up\/[0-9a-f-]{36}\/verify$/),
        '/api/v1/payments/elevations/consume',
        '/api/v1/payments/risk/context',
      ]),
    );
    const bodies = [
      undefined,
      '{"action":',
      '{"action":"payout.create","context":{"amount_minor":1.5}}',
      JSON.stringify({ amount_minor: 'x', extra: 1 }),
    ];
    let compared = 0;
    for (const path of paths) {
      for (const method of METHODS) {
        for (const body of method === 'GET' || method === 'HEAD' ? [undefined] : bodies) {
          for (const token of [undefined, owner.token, key.body.key as string]) {
            const options = { method, ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) };
            const gated = await request(`${svc.url}${path}`, options);
            const unknown = await request(`${svc.url}/api/v1/no-such-surface/${newId()}`, options);
            expect(observableAnswer(gated), `${method} ${path}`).toEqual(observableAnswer(unknown));
            expect(gated.status).toBe(404);
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(6 * 18 * 3);
    // The query string of the risk context does not matter either.
    const risk = await request(`${svc.url}/api/v1/payments/risk/context?user_id=x&sid=y`, { token: key.body.key });
    const unknown = await request(`${svc.url}/api/v1/no-such-surface?user_id=x&sid=y`, { token: key.body.key });
    expect(observableAnswer(risk)).toEqual(observableAnswer(unknown));
  }, 180_000);
});
