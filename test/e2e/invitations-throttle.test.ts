import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_REDEMPTION_PER_IP } from '../../src/modules/members/index.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

const api = (path: string) => `${svc.url}/api/v1${path}`;

describe('invitation redemption budget', () => {
  it('preview, accept and accept-existing share one per-IP budget; past it they answer 429 with rate headers', async () => {
    const signup = await request(api('/auth/signup'), { json: newAccount('throttle') });
    const bearer = signup.body.access_token as string;
    const half = Math.floor(INVITE_REDEMPTION_PER_IP.points / 2);
    for (let i = 0; i < half; i++) {
      expect((await request(api('/invites/preview'), { json: { token: `unknown-${i}` } })).status).toBe(404);
    }
    for (let i = half; i < INVITE_REDEMPTION_PER_IP.points; i++) {
      const res = await request(api('/invites/accept'), { json: { token: `unknown-${i}`, password: 'x'.repeat(16) } });
      expect(res.status).toBe(404);
    }
    const calls = [
      request(api('/invites/preview'), { json: { token: 'unknown' } }),
      request(api('/invites/accept'), { json: { token: 'unknown', password: 'x'.repeat(16) } }),
      request(api('/invites/accept-existing'), { token: bearer, json: { token: 'unknown' } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('ratelimit-limit')).toBe(String(INVITE_REDEMPTION_PER_IP.points));
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
    }
  });
});
