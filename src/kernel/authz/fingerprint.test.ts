import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionFingerprint } from './fingerprint.js';

const action = {
  method: 'PATCH',
  route: '/api/v1/members/:membership_id',
  params: { membership_id: '0190a0a0-0000-7000-8000-000000000001' },
  body: { role: 'admin', note: { why: 'on call', until: 3 } },
};

describe('actionFingerprint', () => {
  it('is the SHA-256 hex of the canonical JSON of {method, route, params, body}', () => {
    const text =
      '{"body":{"note":{"until":3,"why":"on call"},"role":"admin"},"method":"PATCH",' +
      '"params":{"membership_id":"0190a0a0-0000-7000-8000-000000000001"},"route":"/api/v1/members/:membership_id"}';
    expect(actionFingerprint(action)).toBe(createHash('sha256').update(text).digest('hex'));
    expect(actionFingerprint(action)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not depend on key order, at any level', () => {
    const reordered = {
      body: { note: { until: 3, why: 'on call' }, role: 'admin' },
      params: { membership_id: '0190a0a0-0000-7000-8000-000000000001' },
      route: '/api/v1/members/:membership_id',
      method: 'PATCH',
    };
    expect(actionFingerprint(reordered)).toBe(actionFingerprint(action));
  });

  it('changes when any field changes', () => {
    const base = actionFingerprint(action);
    const changed = [
      { ...action, method: 'DELETE' },
      { ...action, route: '/api/v1/members/:id' },
      { ...action, params: { membership_id: '0190a0a0-0000-7000-8000-000000000002' } },
      { ...action, body: { ...action.body, role: 'auditor' } },
      { ...action, body: { ...action.body, note: { why: 'on call', until: 4 } } },
      { ...action, body: { ...action.body, extra: true } },
      { ...action, body: null },
    ].map(actionFingerprint);
    for (const fingerprint of changed) expect(fingerprint).not.toBe(base);
    expect(new Set(changed).size).toBe(changed.length);
  });

  it('keeps array order significant and tells a value from its string', () => {
    const one = actionFingerprint({ ...action, body: { permissions: ['a', 'b'] } });
    expect(actionFingerprint({ ...action, body: { permissions: ['b', 'a'] } })).not.toBe(one);
    expect(actionFingerprint({ ...action, body: { n: 1 } })).not.toBe(
      actionFingerprint({ ...action, body: { n: '1' } }),
    );
  });

  it('gives "no body" and "no params" one spelling each', () => {
    const get = { method: 'GET', route: '/api/v1/agents', params: {}, body: null };
    expect(actionFingerprint({ ...get, body: undefined })).toBe(actionFingerprint(get));
    expect(actionFingerprint({ ...get, params: undefined })).toBe(actionFingerprint(get));
  });
});
