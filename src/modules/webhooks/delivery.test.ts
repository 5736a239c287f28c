import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EgressError } from '../../kernel/net/index.js';
import { bodyOf, errorNameOf, publicDataOf, retryDelayMs } from './delivery.js';
import { signatureHeader } from './signing.js';

describe('retry schedule (Part A 6)', () => {
  it('waits about 30 s, 1 min, 2 min, then doubles, within ±25%', () => {
    const bases = [30, 60, 120, 240, 480, 960, 1920];
    bases.forEach((base, index) => {
      expect(retryDelayMs(index + 1, () => 0)).toBe(base * 750);
      expect(retryDelayMs(index + 1, () => 1)).toBe(base * 1250);
      expect(retryDelayMs(index + 1, () => 0.5)).toBe(base * 1000);
    });
  });

  it('never waits more than 6 hours', () => {
    expect(retryDelayMs(12, () => 1)).toBe(6 * 3_600_000);
    expect(retryDelayMs(30, () => 0)).toBe(6 * 3_600_000);
  });
});

describe('last_error vocabulary', () => {
  it('names timeouts, policy blocks, and connection and TLS errors by their code', () => {
    expect(errorNameOf(new EgressError('timeout', 'no answer'))).toEqual({ error: 'timeout', blocked: false });
    expect(errorNameOf(new EgressError('blocked', 'private'))).toEqual({ error: 'blocked', blocked: true });
    expect(errorNameOf(new EgressError('connection', 'ECONNREFUSED'))).toEqual({
      error: 'ECONNREFUSED',
      blocked: false,
    });
    expect(errorNameOf(new EgressError('tls', 'CERT_HAS_EXPIRED'))).toEqual({
      error: 'CERT_HAS_EXPIRED',
      blocked: false,
    });
  });
});

describe('Svc-Signature', () => {
  it('signs `<t>.<body>` with every active secret', () => {
    const body = '{"id":"x"}';
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_700_000_000, body);
    const expected = (secret: string) => createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected('whsec_new')},v1=${expected('whsec_old')}`);
  });
});

describe('payload (Part A 2.7 and 6)', () => {
  it('never carries session ids, IP addresses or correlation ids, at any depth', () => {
    const data = {
      user_id: 'u1',
      session_id: 's1',
      sid: 's2',
      ip: '203.0.113.9',
      source_ip: '203.0.113.9',
      ip_address: '203.0.113.9',
      correlation_id: 'c1',
      request_id: 'r1',
      sessions_revoked: 3,
      nested: [{ client_ip: 'x', trace_id: 't', label: 'kept' }],
    };
    expect(publicDataOf(data)).toEqual({ user_id: 'u1', sessions_revoked: 3, nested: [{ label: 'kept' }] });
    const body = JSON.parse(
      bodyOf({
        id: 'o1',
        tenant_id: 't1',
        event_id: 'e1',
        event_type: 'user.signed_up',
        payload: { id: 'e1', type: 'user.signed_up', schema_version: 1, data },
        created_at: '2026-11-23T09:00:00.000Z',
      }),
    );
    expect(Object.keys(body)).toEqual(['id', 'type', 'schema_version', 'data']);
    expect(body.data.occurred_at).toBe('2026-11-23T09:00:00.000+00:00');
    expect(JSON.stringify(body)).not.toMatch(/203\.0\.113|"s1"|"c1"|"r1"/);
  });
});
