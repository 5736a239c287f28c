import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { validEndpoint, validEntityId } from './connection.js';

function outcome(work: () => string) {
  try {
    return work();
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe("an identity provider's entity id (SAML metadata 2.3.2)", () => {
  const refused = '422 idp_entity_id: must be 1 to 1024 characters without white space';

  it('is kept exactly, URL or URN, up to 1024 characters', () => {
    expect(outcome(() => validEntityId('https://IdP.example.com/Entity/'))).toBe('https://IdP.example.com/Entity/');
    expect(outcome(() => validEntityId('urn:example:idp'))).toBe('urn:example:idp');
    expect(outcome(() => validEntityId('x'.repeat(1024)))).toBe('x'.repeat(1024));
  });

  it('refuses empty, too long, white space and control characters', () => {
    for (const raw of [
      '',
      'x'.repeat(1025),
      'urn:example idp',
      ' urn:example',
      'urn:example\t',
      'urn:\u0000x',
      'urn:\u0085x',
    ]) {
      expect(
        outcome(() => validEntityId(raw)),
        JSON.stringify(raw),
      ).toBe(refused);
    }
  });
});

describe('an identity provider endpoint the browser is sent to', () => {
  it('is an absolute https URL, kept as written, query included', () => {
    expect(outcome(() => validEndpoint('https://idp.example.com/sso?app=svc', 'sso_url'))).toBe(
      'https://idp.example.com/sso?app=svc',
    );
    // Sent to by the browser, never fetched here: other ports and private names are the admin's business.
    expect(outcome(() => validEndpoint('https://idp.corp.internal:8443/sso', 'sso_url'))).toBe(
      'https://idp.corp.internal:8443/sso',
    );
  });

  it('refuses other schemes, credentials and fragments, naming the field', () => {
    expect(outcome(() => validEndpoint('/sso', 'sso_url'))).toBe('422 sso_url: must be an absolute URL');
    expect(outcome(() => validEndpoint('http://idp.example.com/sso', 'slo_url'))).toBe('422 slo_url: must use https');
    expect(outcome(() => validEndpoint('javascript:alert(1)', 'sso_url'))).toBe('422 sso_url: must use https');
    expect(outcome(() => validEndpoint('https://a:b@idp.example.com/sso', 'sso_url'))).toBe(
      '422 sso_url: must not carry credentials',
    );
    expect(outcome(() => validEndpoint('https://idp.example.com/sso#x', 'sso_url'))).toBe(
      '422 sso_url: must not carry a fragment',
    );
  });
});
