import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observableAnswer, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

// ONBOARD_BOOTSTRAP_ENABLED off (the default): every onboarding surface answers 404 on every method, before the
// body is read and before authentication, byte for byte like a path that was never registered.

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe('onboarding while ONBOARD_BOOTSTRAP_ENABLED is off', () => {
  it('answers 404 on every method of every onboarding route exactly like an unknown path', async () => {
    const unknown = (method: string, body?: string) =>
      request(`${svc.url}/api/v1/onboard/never-registered`, { method, ...(body === undefined ? {} : { body }) });
    const unknownPage = (method: string) => request(`${svc.url}/onboard/never-registered`, { method });
    for (const path of ['/api/v1/onboard/bootstrap', '/api/v1/onboard/poll', '/api/v1/onboard/pow']) {
      for (const [method, body] of [
        ['POST', '{"organization_name": 1'],
        ['POST', '{}'],
        ['POST', undefined],
        ['GET', undefined],
        ['DELETE', undefined],
      ] as const) {
        const res = await request(`${svc.url}${path}`, {
          method,
          ...(body === undefined ? {} : { body }),
          headers: { authorization: 'Bearer nonsense' },
        });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
        expect(observableAnswer(res)).toEqual(observableAnswer(await unknown(method, body)));
      }
    }
    for (const path of [
      '/onboard/verify',
      '/onboard/verify/confirm',
      '/onboard/verify/review',
      '/onboard/verify/approve',
    ]) {
      for (const method of ['GET', 'POST']) {
        const res = await request(`${svc.url}${path}`, { method });
        expect(res.status).toBe(404);
        expect(observableAnswer(res)).toEqual(observableAnswer(await unknownPage(method)));
      }
    }
  });
});
