import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_JOIN_PER_IP } from '../../src/modules/members/index.js';
import { request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';

/**
 * Issue 17 item 4: behind trusted proxies the client address is the right-most X-Forwarded-For entry that no
 * trusted proxy wrote; what the client writes to the left of it never chooses its per-IP budget.
 */
let byHops: TestService;
let byAddresses: TestService;
beforeAll(async () => {
  byHops = await startService({ TRUST_PROXY: '1' });
  // The test talks to the service over loopback: the loopback range plays the load balancers.
  byAddresses = await startService({ TRUST_PROXY: '127.0.0.0/8,::1' });
});
afterAll(async () => {
  await byHops?.close();
  await byAddresses?.close();
});

let spoofed = 0;
const domainCheck = (svc: TestService, forwardedFor: string) =>
  request(`${svc.url}/api/v1/auth/signup/domain-check`, {
    json: { email: 'someone@nowhere.example' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe.each([
  ['a hop count (TRUST_PROXY=1)', () => byHops, '198.51.100.7'],
  ['a list of proxy addresses (TRUST_PROXY=127.0.0.0/8,::1)', () => byAddresses, '198.51.100.8'],
])('behind %s', (_name, service, client) => {
  it('a client-written X-Forwarded-For entry does not pick the throttle address', async () => {
    const svc = service();
    // Each request claims another address on the left; the proxy appended the real client on the right.
    for (let i = 0; i < DOMAIN_JOIN_PER_IP.points; i++) {
      const res = await domainCheck(svc, `203.0.113.${++spoofed % 250}, ${client}`);
      expect(res.status).toBe(200);
    }
    const refused = await domainCheck(svc, `203.0.113.${++spoofed % 250}, ${client}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(DOMAIN_JOIN_PER_IP.points));
    // Another real client behind the same proxy still has its own budget.
    expect((await domainCheck(svc, `${client}, 198.51.100.99`)).status).toBe(200);
  });
});
