import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto/index.js';
import { HttpError } from '../../kernel/http/index.js';
import { verifyClientSecret } from './clients.js';
import { checkRegistration, type RegistrationInput } from './registration.js';

describe('verifyClientSecret', () => {
  const secret = 'kX3n8Q2fW0pLr5tYb7vZc9dHs1gJm4eAo6iUy0qTw2E';
  const stored = sha256Hex(secret);

  it('accepts the secret whose SHA-256 is stored', () => {
    expect(verifyClientSecret(stored, secret)).toBe(true);
  });

  it('refuses any other secret: one character off, a prefix, empty, the hash itself', () => {
    expect(verifyClientSecret(stored, `${secret.slice(0, -1)}F`)).toBe(false);
    expect(verifyClientSecret(stored, secret.slice(0, 20))).toBe(false);
    expect(verifyClientSecret(stored, '')).toBe(false);
    expect(verifyClientSecret(stored, stored)).toBe(false);
  });

  it('never authenticates a public client (no stored hash)', () => {
    expect(verifyClientSecret(null, secret)).toBe(false);
    expect(verifyClientSecret(null, '')).toBe(false);
  });
});

describe('checkRegistration', () => {
  const base: RegistrationInput = {
    name: '  Billing portal ',
    client_type: 'confidential',
    redirect_uris: ['https://billing.example.com/cb'],
  };
  const detailOf = (input: RegistrationInput) => {
    try {
      checkRegistration(input);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(422);
      return (error as HttpError).detail;
    }
  };

  it('applies the defaults and trims the name', () => {
    expect(checkRegistration(base)).toEqual({
      name: 'Billing portal',
      clientType: 'confidential',
      redirectUris: ['https://billing.example.com/cb'],
      grantTypes: ['authorization_code'],
      scopes: ['openid', 'profile', 'email'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
    });
  });

  it('holds the grant-type rules of Part A 4.14', () => {
    expect(detailOf({ ...base, grant_types: ['refresh_token'] })).toBe(
      'grant_types: refresh_token requires authorization_code',
    );
    expect(detailOf({ ...base, client_type: 'public', grant_types: ['client_credentials'] })).toBe(
      'grant_types: client_credentials is only for confidential clients',
    );
    expect(detailOf({ ...base, grant_types: [] })).toBe('grant_types: must name at least one grant type');
    expect(detailOf({ ...base, grant_types: ['implicit'] })).toMatch(/^grant_types: unknown grant type "implicit"/);
    expect(
      checkRegistration({ ...base, grant_types: ['client_credentials', 'client_credentials'] }).grantTypes,
    ).toEqual(['client_credentials']);
  });

  it('names the entry that breaks a URI rule', () => {
    expect(detailOf({ ...base, redirect_uris: ['https://a.example.com/cb', 'http://a.example.com/cb'] })).toBe(
      'redirect_uris.1: http is allowed only on loopback hosts (localhost, 127.0.0.1, [::1]); use https',
    );
    expect(detailOf({ ...base, redirect_uris: ['https://a.example.com/cb', 'https://a.example.com/cb'] })).toBe(
      'redirect_uris.1: duplicate of redirect_uris.0',
    );
    expect(detailOf({ ...base, post_logout_redirect_uris: ['https://a.example.com/#x'] })).toBe(
      'post_logout_redirect_uris.0: must not contain a fragment (#)',
    );
    expect(detailOf({ ...base, backchannel_logout_uri: 'http://rp.example.com/logout' })).toBe(
      'backchannel_logout_uri: must use https',
    );
  });
});
