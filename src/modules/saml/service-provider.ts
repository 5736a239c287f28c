import { SAML, type ValidateInResponseTo } from '@node-saml/node-saml';
import type { ServiceProvider } from './common.js';
import { REDIRECT_BINDING } from './idp-metadata.js';
import type { SamlConnectionRow } from './store.js';
import { escapeXml } from './xml.js';

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/**
 * node-saml configured as this organization's service provider towards its identity provider. It checks what it
 * is good at: the XML signatures (of the assertion, required, against the configured certificates only; a signed
 * response alone is not enough), one assertion per response, the audience, the issuer of logout requests. Every
 * time condition is turned off here (`acceptedClockSkewMs: -1`) and checked by `assertion.ts` against the service's
 * clock (node-saml reads the wall clock); `InResponseTo` is checked there too, against the requests stored in the
 * database (node-saml's cache is per process).
 */
export function serviceProviderSaml(
  connection: SamlConnectionRow,
  sp: ServiceProvider,
  options: { requestId?: string } = {},
): SAML {
  return new SAML({
    issuer: sp.entity_id,
    audience: sp.entity_id,
    callbackUrl: sp.acs_url,
    entryPoint: connection.ssoUrl,
    ...(connection.sloUrl ? { logoutUrl: connection.sloUrl } : {}),
    idpIssuer: connection.idpEntityId,
    idpCert: connection.idpCertificates,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: 'never' as ValidateInResponseTo,
    // The identity provider chooses the NameID format and how the person authenticates: requesting a context class
    // (node-saml's default asks for exactly PasswordProtectedTransport) makes providers refuse people who signed in
    // with a passkey or MFA.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(options.requestId ? { generateUniqueId: () => options.requestId! } : {}),
  });
}

/**
 * The service provider's metadata (SAML 2.0 metadata 2.4.4), for identity providers that import it: the ACS with
 * the HTTP-POST binding and, for single logout, the HTTP-Redirect binding. No KeyDescriptor: this service signs
 * nothing and accepts no encrypted assertions.
 */
export function serviceProviderMetadata(sp: ServiceProvider): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(sp.entity_id)}">`,
    '  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" ' +
      'AuthnRequestsSigned="false" WantAssertionsSigned="true">',
    `    <md:SingleLogoutService Binding="${REDIRECT_BINDING}" Location="${escapeXml(sp.slo_url)}"/>`,
    '    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>',
    '    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>',
    `    <md:AssertionConsumerService Binding="${POST_BINDING}" Location="${escapeXml(sp.acs_url)}" ` +
      'index="0" isDefault="true"/>',
    '  </md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}
