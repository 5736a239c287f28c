import { describe, expect, it } from 'vitest';
import { redirectTo } from './authorize.js';
import { MAX_URI_LENGTH, redirectUriRefusal, resourceIdentifierRefusal } from './redirect-uris.js';

describe('redirect URI rule (Part A 4.14)', () => {
  it('accepts https, http on the three loopback hosts, and private-use schemes (RFC 8252 section 7.1)', () => {
    for (const uri of [
      'https://app.example.com/callback',
      'https://app.example.com:8443/cb?tenant=a',
      'https://localhost/cb',
      'https://203.0.113.7/cb',
      'http://localhost/cb',
      'http://localhost:8080/cb',
      'http://127.0.0.1:49152/callback',
      'http://[::1]:3000/cb',
      'com.example.app:/oauth2redirect',
      'com.example.app://callback',
    ]) {
      expect([uri, redirectUriRefusal(uri)]).toEqual([uri, null]);
    }
  });

  it('refuses a fragment, also an empty one', () => {
    expect(redirectUriRefusal('https://app.example.com/cb#frag')).toBe('must not contain a fragment (#)');
    expect(redirectUriRefusal('https://app.example.com/cb#')).toBe('must not contain a fragment (#)');
  });

  it('refuses wildcards anywhere', () => {
    for (const uri of ['https://*.example.com/cb', 'https://app.example.com/*', 'com.example.*:/cb']) {
      expect(redirectUriRefusal(uri)).toBe('must not contain a wildcard (*): register every URI exactly');
    }
  });

  it('refuses plain http to any host but loopback', () => {
    const refusal = 'http is allowed only on loopback hosts (localhost, 127.0.0.1, [::1]); use https';
    for (const uri of [
      'http://app.example.com/cb',
      'http://10.0.0.1/cb',
      'http://127.0.0.1.nip.io/cb',
      'http://localhost.example.com/cb',
      'http://0.0.0.0/cb',
    ]) {
      expect([uri, redirectUriRefusal(uri)]).toEqual([uri, refusal]);
    }
  });

  it('refuses relative, malformed and authority-less URIs', () => {
    for (const uri of [
      '/callback',
      'callback',
      'app.example.com/cb',
      'https:///cb',
      'https:app.example.com',
      'https://exa mple.com/',
      'https://app.example.com/ü',
    ]) {
      expect([uri, redirectUriRefusal(uri)]).toEqual([uri, 'must be an absolute URI']);
    }
    expect(redirectUriRefusal('')).toBe('must not be empty');
  });

  it('refuses schemes that are neither web nor private-use, naming the rule', () => {
    for (const scheme of ['javascript', 'data', 'file', 'ftp', 'myapp']) {
      expect(redirectUriRefusal(`${scheme}:/cb`)).toMatch(new RegExp(`^scheme "${scheme}" is not allowed: .*RFC 8252`));
    }
  });

  it('refuses credentials and over-long URIs', () => {
    expect(redirectUriRefusal('https://user:pw@app.example.com/cb')).toBe('must not carry credentials');
    const long = `https://app.example.com/${'a'.repeat(MAX_URI_LENGTH)}`;
    expect(redirectUriRefusal(long)).toBe(`must be at most ${MAX_URI_LENGTH} characters`);
    const exact = `https://app.example.com/${'a'.repeat(MAX_URI_LENGTH - 'https://app.example.com/'.length)}`;
    expect(redirectUriRefusal(exact)).toBeNull();
  });
});

describe('resource identifier rule (RFC 8707 section 2)', () => {
  it('accepts absolute URIs, query included', () => {
    for (const id of ['https://api.example.com', 'https://api.example.com/v1?x=1', 'urn:example:billing-api']) {
      expect([id, resourceIdentifierRefusal(id)]).toEqual([id, null]);
    }
  });

  it('refuses fragments and relative or malformed identifiers', () => {
    expect(resourceIdentifierRefusal('https://api.example.com/#x')).toBe(
      'must not contain a fragment (RFC 8707 section 2)',
    );
    for (const id of ['api.example.com', '/v1', 'https://api example.com', 'https:api.example.com']) {
      expect([id, resourceIdentifierRefusal(id)]).toEqual([id, 'must be an absolute URI (RFC 8707 section 2)']);
    }
  });
});

describe('the answer on the redirect URI (RFC 6749 section 3.1.2)', () => {
  it('keeps the registered query exactly as written and appends the parameters', () => {
    expect(redirectTo('https://app.example.com/cb?next=a%20b&x=~y', { code: 'c d', state: 's&t' })).toBe(
      'https://app.example.com/cb?next=a%20b&x=~y&code=c+d&state=s%26t',
    );
    expect(redirectTo('com.example.app:/oauth2redirect', { error: 'access_denied', state: null })).toBe(
      'com.example.app:/oauth2redirect?error=access_denied',
    );
    expect(redirectTo('http://127.0.0.1:9/cb?', {})).toBe('http://127.0.0.1:9/cb?');
  });
});
