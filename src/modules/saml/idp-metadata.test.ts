import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { describeIdentityProvider, REDIRECT_BINDING } from './idp-metadata.js';

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

const key = (certificate: string, use?: string) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

function idp(options: { protocols?: string; keys?: string; endpoints?: string } = {}) {
  return `<md:IDPSSODescriptor protocolSupportEnumeration="${options.protocols ?? PROTOCOL}">${
    options.keys ?? key('SIGNING', 'signing')
  }${
    options.endpoints ??
    `<md:SingleLogoutService Binding="${REDIRECT_BINDING}" Location="https://idp.example.com/slo"/>` +
      `<md:SingleSignOnService Binding="${POST_BINDING}" Location="https://idp.example.com/post"/>` +
      `<md:SingleSignOnService Binding="${REDIRECT_BINDING}" Location="https://idp.example.com/sso"/>`
  }</md:IDPSSODescriptor>`;
}

const NAMESPACES = 'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';
const entity = (body: string, entityId: string | null = 'https://idp.example.com/entity') =>
  `<md:EntityDescriptor ${NAMESPACES}${entityId === null ? '' : ` entityID="${entityId}"`}>${body}</md:EntityDescriptor>`;

function outcome(xml: string) {
  try {
    return describeIdentityProvider(xml);
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('reading identity provider metadata', () => {
  it('takes the entity id, the HTTP-Redirect endpoints and the signing certificates', () => {
    expect(
      outcome(entity(idp({ keys: key('SIGNING', 'signing') + key('ENCRYPTING', 'encryption') + key('ANY') }))),
    ).toEqual({
      idpEntityId: 'https://idp.example.com/entity',
      ssoUrl: 'https://idp.example.com/sso',
      sloUrl: 'https://idp.example.com/slo',
      certificates: ['SIGNING', 'ANY'],
    });
  });

  it('answers no logout URL when the provider has none with the redirect binding', () => {
    const endpoints = `<md:SingleSignOnService Binding="${REDIRECT_BINDING}" Location="https://idp.example.com/sso"/>`;
    expect(outcome(entity(idp({ endpoints })))).toMatchObject({ sloUrl: null });
  });

  it('finds the one identity provider of an aggregate', () => {
    const aggregate = `<md:EntitiesDescriptor ${NAMESPACES}>${entity('<md:SPSSODescriptor/>', 'https://sp.example')}${entity(idp())}</md:EntitiesDescriptor>`;
    expect(outcome(aggregate)).toMatchObject({ idpEntityId: 'https://idp.example.com/entity' });
  });

  it('refuses an aggregate with two identity providers', () => {
    const aggregate = `<md:EntitiesDescriptor ${NAMESPACES}>${entity(idp(), 'https://a.example')}${entity(idp(), 'https://b.example')}</md:EntitiesDescriptor>`;
    expect(outcome(aggregate)).toBe('422 metadata: more than one identity provider; import one entity');
  });

  it('refuses what is not SAML 2.0 metadata', () => {
    expect(outcome('<root/>')).toBe('422 metadata: the document is no SAML 2.0 EntityDescriptor');
    expect(outcome('<EntityDescriptor/>')).toBe('422 metadata: the document is no SAML 2.0 EntityDescriptor');
    expect(outcome('<md:EntityDescriptor')).toBe('422 metadata: not well-formed XML');
    expect(outcome(entity(idp({ protocols: 'urn:oasis:names:tc:SAML:1.1:protocol' })))).toBe(
      '422 metadata: no SAML 2.0 IDPSSODescriptor',
    );
  });

  it('refuses any document type declaration before parsing', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${entity(idp())}`;
    expect(outcome(xxe)).toBe('422 metadata: document type declarations (DTDs) are not allowed');
  });

  it('names what is missing: entity id, redirect sign-on endpoint, signing certificate', () => {
    expect(outcome(entity(idp(), null))).toBe('422 metadata: the EntityDescriptor has no entityID');
    const postOnly = `<md:SingleSignOnService Binding="${POST_BINDING}" Location="https://idp.example.com/post"/>`;
    expect(outcome(entity(idp({ endpoints: postOnly })))).toBe(
      '422 metadata: no SingleSignOnService with the HTTP-Redirect binding',
    );
    expect(outcome(entity(idp({ keys: key('ENCRYPTING', 'encryption') })))).toBe(
      '422 metadata: no signing certificate (KeyDescriptor use="signing")',
    );
  });
});
