import { unprocessable } from '../../kernel/http/index.js';
import { attributeOf, childrenOf, NS, parseXml, textOf, type XmlElement, XmlRefused } from './xml.js';

export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What an identity provider's metadata says about it that a connection needs. */
export interface IdpDescription {
  idpEntityId: string;
  ssoUrl: string;
  sloUrl: string | null;
  certificates: string[];
}

/** The one entity of the document that is an identity provider (an aggregate may carry several entities). */
function identityProviderEntity(root: XmlElement): { entity: XmlElement; idp: XmlElement } {
  let entities: XmlElement[];
  if (root.namespaceURI === NS.metadata && root.localName === 'EntityDescriptor') entities = [root];
  else if (root.namespaceURI === NS.metadata && root.localName === 'EntitiesDescriptor') {
    entities = childrenOf(root, NS.metadata, 'EntityDescriptor');
  } else throw unprocessable('metadata: the document is no SAML 2.0 EntityDescriptor');
  const providers = entities.flatMap((entity) =>
    childrenOf(entity, NS.metadata, 'IDPSSODescriptor')
      .filter((idp) => (attributeOf(idp, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(NS.protocol))
      .map((idp) => ({ entity, idp })),
  );
  if (providers.length === 0) throw unprocessable('metadata: no SAML 2.0 IDPSSODescriptor');
  if (providers.length > 1) throw unprocessable('metadata: more than one identity provider; import one entity');
  return providers[0]!;
}

/** The `Location` of the first endpoint of `kind` with the HTTP-Redirect binding, the one this service uses. */
function redirectLocation(idp: XmlElement, kind: 'SingleSignOnService' | 'SingleLogoutService'): string | undefined {
  const endpoint = childrenOf(idp, NS.metadata, kind).find(
    (element) => attributeOf(element, 'Binding') === REDIRECT_BINDING,
  );
  return endpoint && attributeOf(endpoint, 'Location');
}

/**
 * Reads an identity provider's SAML 2.0 metadata (OASIS SAML metadata 2.4.3): its entity id, its HTTP-Redirect
 * SingleSignOnService and SingleLogoutService, and its signing certificates (KeyDescriptors of use `signing` or of
 * no stated use). The document's own signature is not checked: an admin with `tenant:manage` supplies it over an
 * authenticated call, as they could type the same values. DTDs are refused. 422 naming what is missing.
 */
export function describeIdentityProvider(xml: string): IdpDescription {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof XmlRefused) throw unprocessable(`metadata: ${error.message}`);
    throw error;
  }
  const { entity, idp } = identityProviderEntity(root);
  const idpEntityId = attributeOf(entity, 'entityID');
  if (!idpEntityId) throw unprocessable('metadata: the EntityDescriptor has no entityID');
  const ssoUrl = redirectLocation(idp, 'SingleSignOnService');
  if (!ssoUrl) throw unprocessable('metadata: no SingleSignOnService with the HTTP-Redirect binding');
  const certificates = childrenOf(idp, NS.metadata, 'KeyDescriptor')
    .filter((key) => (attributeOf(key, 'use') ?? 'signing') === 'signing')
    .flatMap((key) => childrenOf(key, NS.dsig, 'KeyInfo'))
    .flatMap((info) => childrenOf(info, NS.dsig, 'X509Data'))
    .flatMap((data) => childrenOf(data, NS.dsig, 'X509Certificate'))
    .map((certificate) => textOf(certificate))
    .filter((text): text is string => text !== undefined);
  if (certificates.length === 0) throw unprocessable('metadata: no signing certificate (KeyDescriptor use="signing")');
  return { idpEntityId, ssoUrl, sloUrl: redirectLocation(idp, 'SingleLogoutService') ?? null, certificates };
}
