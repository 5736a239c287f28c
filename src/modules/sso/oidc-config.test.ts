import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { validIssuer } from './oidc-config.js';

function outcome(raw: string) {
  try {
    return validIssuer(raw);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe("an SSO connection's issuer", () => {
  it('is kept exactly as written, since discovery compares it exactly', () => {
    expect(outcome('https://login.example.com')).toBe('https://login.example.com');
    expect(outcome('https://login.example.com/')).toBe('https://login.example.com/');
    expect(outcome('https://login.example.com/tenant/v2.0')).toBe('https://login.example.com/tenant/v2.0');
  });

  it('refuses white space, a query and a fragment', () => {
    expect(outcome('https://login.example.com /x')).toBe('422 issuer: must not contain white space');
    expect(outcome(' https://login.example.com')).toBe('422 issuer: must not contain white space');
    expect(outcome('https://login.example.com/?tenant=1')).toBe('422 issuer: must not carry a query');
    expect(outcome('https://login.example.com/#x')).toBe('422 issuer: must not carry a fragment');
  });

  it('holds the outbound rule: https on 443 to a public name', () => {
    expect(outcome('http://login.example.com')).toBe('422 issuer: must use https');
    expect(outcome('https://login.example.com:8443')).toBe('422 issuer: port must be 443');
    expect(outcome('https://10.0.0.1')).toBe('422 issuer: host must be a name, not an IP address');
    expect(outcome('https://idp.internal')).toBe(
      '422 issuer: host must be a fully-qualified public host name (private-use name (.internal))',
    );
    expect(outcome('login.example.com')).toBe('422 issuer: must be an absolute URL');
  });
});
