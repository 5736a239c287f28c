import { expect } from 'vitest';
import { RecordType, startDnsServer } from '../support/dns.js';
import { newAccount, request } from '../support/http.js';
import { startService, type TestService } from '../support/service.js';
import { RECEIVER_HOST, startWebhookReceiver, TEST_CA_FILE } from '../support/webhook-receiver.js';

/** Shared set-up of the webhook e2e files (not a test file itself). */

/**
 * A webhook receiver over TLS, a DNS server, and the service: it resolves names through that server (which answers
 * a private address, loopback, and a domain with mail but no address) and reaches RECEIVER_HOST, and the hosts of
 * `moreRoutes` (given the receiver's port), through the test routes, trusting the test CA. `close` stops all three;
 * a failed start stops what had started.
 */
export async function startWebhookServices(moreRoutes: (receiverPort: number) => Promise<string[]> = async () => []) {
  // What has started, stopped in reverse order by `close`, or at once when a later start fails.
  const started: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const part of [...started].reverse()) await part.close();
  };
  try {
    const receiver = await startWebhookReceiver();
    started.push(receiver);
    const dns = await startDnsServer({
      'internal.example.test': [{ type: RecordType.A, address: '10.0.0.1' }],
      'loopback.example.test': [{ type: RecordType.A, address: '127.0.0.1' }],
      'example.com': [{ type: RecordType.MX, exchange: 'mx.example.com', priority: 10 }],
    });
    started.push(dns);
    const routes = [`${RECEIVER_HOST}=127.0.0.1:${receiver.port}`, ...(await moreRoutes(receiver.port))];
    const svc = await startService({
      EGRESS_TEST_ROUTES: routes.join(','),
      EGRESS_TEST_CA_FILE: TEST_CA_FILE,
      DNS_SERVERS: `127.0.0.1:${dns.port}`,
    });
    started.push(svc);
    return { svc, receiver, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A new organization's owner, signed up over the API: the token and the organization's id. */
export async function signUpWebhookOwner(svc: TestService, label: string) {
  const res = await request(`${svc.url}/api/v1/auth/signup`, { json: newAccount(label) });
  expect(res.status).toBe(201);
  const me = await request(`${svc.url}/api/v1/me`, { token: res.body.access_token });
  return { token: res.body.access_token as string, tenantId: me.body.tenant_id as string };
}
