import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_JOIN_PER_IP } from '../../src/modules/members/index.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

describe('domain join budget', () => {
  it('domain-check and domain join share one per-IP budget, not the invitation one', async () => {
    for (let i = 0; i < DOMAIN_JOIN_PER_IP.points; i++) {
      const res =
        i % 2 === 0
          ? await request(api('/auth/signup/domain-check'), { json: { email: `p${i}@nowhere.example` } })
          : await request(api('/auth/signup/domain'), {
              json: { email: `p${i}@nowhere.example`, password: 'a strong domain password' },
            });
      expect(res.status).toBe(i % 2 === 0 ? 200 : 409);
    }
    for (const res of [
      await request(api('/auth/signup/domain-check'), { json: { email: 'x@nowhere.example' } }),
      await request(api('/auth/signup/domain'), {
        json: { email: 'x@nowhere.example', password: 'a strong password!' },
      }),
    ]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-limit')).toBe(String(DOMAIN_JOIN_PER_IP.points));
    }
    // The invitation budget is separate.
    expect((await request(api('/invites/preview'), { json: { token: 'unknown' } })).status).toBe(404);
  });
});
