import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../kernel/http/index.js';
import { type ClientCredentialsContext, confidentialOnly, grantedScope, singleResource } from './client-credentials.js';

/** Only what these checks read: the client's type and registered scopes, the `scope` parameter, the resources. */
function contextOf(input: {
  scopes?: string[];
  clientType?: string;
  scope?: string;
  resources?: string[];
}): ClientCredentialsContext {
  return {
    client: { clientType: input.clientType ?? 'confidential', scopes: input.scopes ?? ['openid', 'profile', 'email'] },
    params: input.scope === undefined ? {} : { scope: input.scope },
    resources: input.resources ?? [],
  } as unknown as ClientCredentialsContext;
}

function run(check: { run(context: ClientCredentialsContext): unknown }, context: ClientCredentialsContext) {
  try {
    check.run(context);
    return 'passed';
  } catch (error) {
    if (error instanceof OAuthError) return `${error.status} ${error.error}: ${error.description}`;
    throw error;
  }
}

describe('client_credentials scope, capped to the registered set (Part A 4.14)', () => {
  const scopesOf = (input: Parameters<typeof contextOf>[0]) => {
    const context = contextOf(input);
    const outcome = run(grantedScope, context);
    return outcome === 'passed' ? context.scopes : outcome;
  };

  it('grants the whole registered set when no scope, or only spaces, is asked', () => {
    expect(scopesOf({ scopes: ['profile', 'email'] })).toEqual(['profile', 'email']);
    expect(scopesOf({ scopes: ['profile', 'email'], scope: '' })).toEqual(['profile', 'email']);
    expect(scopesOf({ scopes: ['profile', 'email'], scope: '   ' })).toEqual(['profile', 'email']);
  });

  it('grants a subset in the order asked, each scope once', () => {
    expect(scopesOf({ scopes: ['openid', 'profile', 'email'], scope: 'email  profile email' })).toEqual([
      'email',
      'profile',
    ]);
  });

  it('hands out a copy of the registered set, never the registration itself', () => {
    const registered = ['profile'];
    const context = contextOf({ scopes: registered });
    run(grantedScope, context);
    expect(context.scopes).toEqual(['profile']);
    expect(context.scopes).not.toBe(registered);
  });

  it('drops the asked scopes outside the registered set, keeping the rest (capped, not refused)', () => {
    expect(scopesOf({ scopes: ['profile', 'email'], scope: 'profile openid' })).toEqual(['profile']);
    expect(scopesOf({ scopes: ['openid', 'email'], scope: 'openid email profile' })).toEqual(['openid', 'email']);
  });

  it('refuses only when nothing asked is registered (invalid_scope)', () => {
    const refused = '400 invalid_scope: None of the requested scopes is registered for this client (profile email)';
    expect(scopesOf({ scopes: ['profile', 'email'], scope: 'Profile' })).toBe(refused);
    expect(scopesOf({ scopes: ['profile', 'email'], scope: 'profile,email' })).toBe(refused);
    expect(scopesOf({ scopes: [], scope: 'openid' })).toBe(
      '400 invalid_scope: None of the requested scopes is registered for this client ()',
    );
    expect(scopesOf({ scopes: [] })).toEqual([]);
  });
});

describe('client_credentials client type and resource', () => {
  it('is only for confidential clients (unauthorized_client)', () => {
    expect(run(confidentialOnly, contextOf({ clientType: 'confidential' }))).toBe('passed');
    expect(run(confidentialOnly, contextOf({ clientType: 'public' }))).toBe(
      '400 unauthorized_client: client_credentials is only for confidential clients',
    );
  });

  it('takes at most one resource (RFC 8707), and none is none', () => {
    const none = contextOf({});
    expect(run(singleResource, none)).toBe('passed');
    expect(none.resource).toBeUndefined();
    const one = contextOf({ resources: ['https://api.example.com'] });
    expect(run(singleResource, one)).toBe('passed');
    expect(one.resource).toBe('https://api.example.com');
    expect(run(singleResource, contextOf({ resources: ['https://a.example', 'https://b.example'] }))).toBe(
      '400 invalid_target: Only one resource may be named per token request',
    );
  });
});
