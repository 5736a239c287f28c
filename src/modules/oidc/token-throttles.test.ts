import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../kernel/http/index.js';
import { clientAddressKey, clientAllowance, WINDOW_SECONDS } from './token-throttles.js';

describe("an OAuth client's allowance per 5 minutes (Part A 8)", () => {
  it("takes the plan's allowance while none is negotiated (0 or no row)", () => {
    expect(clientAllowance({ plan: 'free', negotiatedAllowance: undefined })).toEqual({
      name: 'oauth-client-free',
      points: 60,
      durationSeconds: 300,
    });
    expect(clientAllowance({ plan: 'pro', negotiatedAllowance: 0 })).toEqual({
      name: 'oauth-client-pro',
      points: 600,
      durationSeconds: 300,
    });
    expect(clientAllowance({ plan: 'enterprise', negotiatedAllowance: undefined })?.points).toBe(6_000);
    expect(WINDOW_SECONDS).toBe(300);
  });

  it('reads a retired plan as free', () => {
    expect(clientAllowance({ plan: 'retired', negotiatedAllowance: undefined })?.name).toBe('oauth-client-free');
  });

  it('takes a negotiated allowance over the plan, up or down, as a policy of its own', () => {
    expect(clientAllowance({ plan: 'free', negotiatedAllowance: 10_000 })).toEqual({
      name: 'oauth-client-negotiated-10000',
      points: 10_000,
      durationSeconds: 300,
    });
    expect(clientAllowance({ plan: 'enterprise', negotiatedAllowance: 1 })?.points).toBe(1);
  });

  it('answers 503 for a malformed negotiated value rather than lifting the cap', () => {
    for (const value of [-1, 1.5, '600', null, 100_000_001]) {
      let status: number | undefined;
      try {
        clientAllowance({ plan: 'free', negotiatedAllowance: value });
      } catch (error) {
        status = (error as HttpError).status;
      }
      expect(status, JSON.stringify(value)).toBe(503);
    }
  });

  it('keys the failure budget by client and address', () => {
    expect(clientAddressKey('cl_abc', '192.0.2.1')).toBe('cl_abc|192.0.2.1');
    expect(clientAddressKey('cl_abc', '2001:db8::1')).not.toBe(clientAddressKey('cl_abc', '2001:db8::2'));
  });
});
