import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../kernel/http/index.js';
import {
  type Check,
  type Grant,
  type GrantRequest,
  grantFor,
  grantRegistered,
  organizationOpen,
  runChecks,
} from './grants.js';

const grant = (name: string): Grant => ({ handle: async () => ({ name }) as never });
const GRANTS = new Map([
  ['authorization_code', grant('code')],
  ['refresh_token', grant('refresh')],
]);

function outcome(work: () => unknown) {
  try {
    return work();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.status} ${error.error}: ${error.description}`;
    throw error;
  }
}

const requestOf = (client: { grantTypes?: string[]; quarantined?: boolean }) =>
  ({
    client: { grantTypes: client.grantTypes ?? [], quarantined: client.quarantined ?? false },
  }) as unknown as GrantRequest;

describe('grantFor (RFC 6749 section 5.2)', () => {
  it('finds the handler of a registered grant_type', () => {
    expect(grantFor(GRANTS, 'refresh_token')).toBe(GRANTS.get('refresh_token'));
  });

  it('answers invalid_request when grant_type is missing', () => {
    expect(outcome(() => grantFor(GRANTS, undefined))).toBe('400 invalid_request: grant_type is required');
  });

  it('answers unsupported_grant_type listing the supported ones, without echoing the value', () => {
    const answer =
      '400 unsupported_grant_type: This grant_type is not supported (supported: authorization_code, refresh_token)';
    expect(outcome(() => grantFor(GRANTS, 'password'))).toBe(answer);
    expect(outcome(() => grantFor(GRANTS, '<script>'))).toBe(answer);
    expect(outcome(() => grantFor(GRANTS, ''))).toBe(answer);
    expect(outcome(() => grantFor(GRANTS, 'Refresh_Token'))).toBe(answer);
  });
});

describe('grant checks', () => {
  it('refuses a grant the client is not registered for (unauthorized_client)', () => {
    const check = grantRegistered('refresh_token');
    expect(
      outcome(() => check.run(requestOf({ grantTypes: ['authorization_code', 'refresh_token'] }))),
    ).toBeUndefined();
    expect(outcome(() => check.run(requestOf({ grantTypes: ['authorization_code'] })))).toBe(
      '400 unauthorized_client: This client is not registered for the refresh_token grant',
    );
  });

  it('closes the clients of an organization awaiting approval (Part B 4.5)', () => {
    const check = organizationOpen();
    expect(outcome(() => check.run(requestOf({ quarantined: false })))).toBeUndefined();
    expect(outcome(() => check.run(requestOf({ quarantined: true })))).toMatch(
      /^400 unauthorized_client: The organization is awaiting approval/,
    );
  });

  it('runs checks in order and stops at the first refusal', async () => {
    const ran: string[] = [];
    const step = (name: string, refuse = false): Check<object> => ({
      name,
      run() {
        ran.push(name);
        if (refuse) throw new OAuthError('invalid_request', name);
      },
    });
    await expect(runChecks([step('a'), step('b', true), step('c')], {})).rejects.toThrow('b');
    expect(ran).toEqual(['a', 'b']);
  });
});
