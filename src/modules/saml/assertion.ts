import { SamlStatusError } from '@node-saml/node-saml';
import { CLOCK_SKEW_MS, type ServiceProvider } from './common.js';
import { serviceProviderSaml } from './service-provider.js';
import type { SamlConnectionRow } from './store.js';
import { attributeOf, childOf, childrenOf, is, NS, parseXml, textOf, type XmlElement, XmlRefused } from './xml.js';

/** Why a response was refused: recorded for the organization (`sso.sign_in_refused`), never shown to the browser. */
export class SamlRefusal extends Error {
  constructor(
    readonly reason: string,
    /** What the identity provider said, when it said why (its status codes). */
    readonly detail?: string,
  ) {
    super(reason);
  }
}

/** A decoded SAMLResponse over this: more than any identity provider sends, less than a parser bomb needs. */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/** What the unsigned envelope of a response says; trusted only as far as the signed assertion confirms it. */
export interface ResponseEnvelope {
  xml: string;
  inResponseTo: string | undefined;
  destination: string | undefined;
  issuer: string | undefined;
  /** The top-level and second-level status codes (SAML 2.0 core 3.2.2.2). */
  status: string[];
  /** How many plain assertions it carries (exactly one is accepted), and whether it carries an encrypted one. */
  assertions: number;
  encryptedAssertion: boolean;
  /** The signature algorithms of the assertion's signature, when it has one. */
  assertionSignature: { signatureMethod?: string; digestMethods: string[] } | undefined;
}

/** SHA-1 is refused for signatures and digests (collision attacks); these are what identity providers use now. */
const SIGNATURE_METHODS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const DIGEST_METHODS = new Set(['http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2001/04/xmlenc#sha512']);

/** Decodes the HTTP-POST binding's `SAMLResponse` (SAML 2.0 bindings 3.5.4) and reads its envelope. */
export function envelopeOf(samlResponse: string): ResponseEnvelope {
  const bytes = Buffer.from(samlResponse, 'base64');
  if (bytes.length === 0) throw new SamlRefusal('malformed_response');
  if (bytes.length > MAX_RESPONSE_BYTES) throw new SamlRefusal('response_too_large');
  const xml = bytes.toString('utf8');
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    if (error instanceof XmlRefused)
      throw new SamlRefusal(/DTD/.test(error.message) ? 'dtd_refused' : 'malformed_response');
    throw error;
  }
  if (!is(root, NS.protocol, 'Response')) throw new SamlRefusal('not_a_response');
  const assertions = childrenOf(root, NS.assertion, 'Assertion');
  const assertion = assertions[0];
  const statusCode = childOf(childOf(root, NS.protocol, 'Status') ?? root, NS.protocol, 'StatusCode');
  const nestedCode = statusCode && childOf(statusCode, NS.protocol, 'StatusCode');
  const signature = assertion && childOf(assertion, NS.dsig, 'Signature');
  const signedInfo = signature && childOf(signature, NS.dsig, 'SignedInfo');
  return {
    xml,
    inResponseTo: attributeOf(root, 'InResponseTo'),
    destination: attributeOf(root, 'Destination'),
    issuer: textOf(childOf(root, NS.assertion, 'Issuer')),
    status: [statusCode, nestedCode]
      .map((code) => code && attributeOf(code, 'Value'))
      .filter((value): value is string => value !== undefined),
    assertions: assertions.length,
    encryptedAssertion: childOf(root, NS.assertion, 'EncryptedAssertion') !== undefined,
    assertionSignature: signedInfo && {
      signatureMethod: attributeOf(childOf(signedInfo, NS.dsig, 'SignatureMethod') ?? signedInfo, 'Algorithm'),
      digestMethods: childrenOf(signedInfo, NS.dsig, 'Reference').map(
        (reference) => attributeOf(childOf(reference, NS.dsig, 'DigestMethod') ?? reference, 'Algorithm') ?? '',
      ),
    },
  };
}

/** What a verified assertion says about the person and the identity provider's session. */
export interface VerifiedAssertion {
  assertionId: string;
  /** The request it answers (SubjectConfirmationData, signed). */
  inResponseTo: string;
  nameId: string;
  sessionIndex: string | null;
  email: string | undefined;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  /** Until when the assertion could be accepted: its id is remembered that long (replay). */
  acceptableUntil: Date;
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attribute names identity providers use (Okta, Entra ID, Google, ADFS, Shibboleth), compared lowercased. */
export const ATTRIBUTES = {
  email: [
    'email',
    'mail',
    'emailaddress',
    'user.email',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
  ],
  givenName: [
    'givenname',
    'given_name',
    'firstname',
    'first_name',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'urn:oid:2.5.4.42',
  ],
  familyName: [
    'sn',
    'surname',
    'family_name',
    'lastname',
    'last_name',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'urn:oid:2.5.4.4',
  ],
  name: [
    'displayname',
    'name',
    'http://schemas.microsoft.com/identity/claims/displayname',
    'urn:oid:2.16.840.1.113730.3.1.241',
  ],
};

export function attributesOf(assertion: XmlElement): Map<string, string> {
  const values = new Map<string, string>();
  for (const statement of childrenOf(assertion, NS.assertion, 'AttributeStatement')) {
    for (const attribute of childrenOf(statement, NS.assertion, 'Attribute')) {
      const name = attributeOf(attribute, 'Name')?.toLowerCase();
      const value = textOf(childOf(attribute, NS.assertion, 'AttributeValue'));
      if (name && value && !values.has(name)) values.set(name, value);
    }
  }
  return values;
}

export const first = (values: Map<string, string>, names: string[]) =>
  names.map((name) => values.get(name)).find((value) => value !== undefined);

const instant = (value: string | undefined): number | undefined => {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/** node-saml's refusal, named by what failed. */
function reasonOf(error: unknown): string {
  if (error instanceof SamlStatusError) return 'idp_status_not_success';
  const message = error instanceof Error ? error.message : '';
  if (/decrypt/i.test(message)) return 'encrypted_assertion_unsupported';
  if (/audience/i.test(message)) return 'audience_mismatch';
  if (/signature/i.test(message)) return 'signature_invalid';
  return 'invalid_response';
}

/**
 * Why a bearer SubjectConfirmation does not confirm the subject here (SAML 2.0 profiles 4.1.4.2 and 4.1.4.3), or
 * undefined when it does: sent to this organization's ACS, in response to the request the response names, not
 * expired.
 */
function confirmationRefusal(
  confirmation: XmlElement,
  expected: { recipient: string; inResponseTo: string | undefined },
  now: number,
): string | undefined {
  const data = childOf(confirmation, NS.assertion, 'SubjectConfirmationData');
  if (!data) return 'no_subject_confirmation_data';
  if (attributeOf(data, 'Recipient') !== expected.recipient) return 'recipient_mismatch';
  const notOnOrAfter = instant(attributeOf(data, 'NotOnOrAfter'));
  if (notOnOrAfter === undefined) return 'no_subject_confirmation_expiry';
  if (now - CLOCK_SKEW_MS >= notOnOrAfter) return 'expired';
  const notBefore = instant(attributeOf(data, 'NotBefore'));
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) return 'not_yet_valid';
  const inResponseTo = attributeOf(data, 'InResponseTo');
  if (!inResponseTo) return 'unsolicited_response';
  if (expected.inResponseTo !== undefined && inResponseTo !== expected.inResponseTo) return 'in_response_to_mismatch';
  return undefined;
}

/**
 * Verifies a response to one of this organization's requests (SAML 2.0 core 2 and 3.2.2, profiles 4.1.4): the
 * assertion signed by a configured certificate with SHA-256 or stronger, issued by the configured identity
 * provider, for this service provider (audience), sent to this ACS (recipient, destination), within its time
 * conditions (60 s skew, against the service clock), answering a request (`InResponseTo`: unsolicited responses
 * are refused), with an authentication statement. Only the signed assertion's content is read. `SamlRefusal`
 * names the first failed check.
 */
export async function verifyResponse(
  connection: SamlConnectionRow,
  sp: ServiceProvider,
  envelope: ResponseEnvelope,
  nowDate: Date,
): Promise<VerifiedAssertion> {
  const now = nowDate.getTime();
  if (envelope.destination !== undefined && envelope.destination !== sp.acs_url) {
    throw new SamlRefusal('destination_mismatch');
  }
  if (envelope.issuer !== undefined && envelope.issuer !== connection.idpEntityId) {
    throw new SamlRefusal('issuer_mismatch');
  }
  if (envelope.status[0] !== SUCCESS) {
    // The identity provider refused (the person is not assigned to the application, cancelled, …).
    throw new SamlRefusal('idp_status_not_success', envelope.status.join(' ').slice(0, 300));
  }
  if (envelope.encryptedAssertion) throw new SamlRefusal('encrypted_assertion_unsupported');
  if (envelope.assertions !== 1)
    throw new SamlRefusal(envelope.assertions === 0 ? 'no_assertion' : 'multiple_assertions');
  if (!envelope.assertionSignature) throw new SamlRefusal('assertion_not_signed');
  const { signatureMethod, digestMethods } = envelope.assertionSignature;
  if (
    !signatureMethod ||
    !SIGNATURE_METHODS.has(signatureMethod) ||
    !digestMethods.every((m) => DIGEST_METHODS.has(m))
  ) {
    throw new SamlRefusal('weak_signature_algorithm');
  }
  let signedXml: string;
  try {
    const { profile } = await serviceProviderSaml(connection, sp).validatePostResponseAsync({
      SAMLResponse: Buffer.from(envelope.xml, 'utf8').toString('base64'),
    });
    if (!profile?.getAssertionXml) throw new SamlRefusal('no_assertion');
    signedXml = profile.getAssertionXml();
  } catch (error) {
    if (error instanceof SamlRefusal) throw error;
    throw new SamlRefusal(reasonOf(error));
  }
  const assertion = parseXml(signedXml);
  if (!is(assertion, NS.assertion, 'Assertion')) throw new SamlRefusal('no_assertion');
  if (textOf(childOf(assertion, NS.assertion, 'Issuer')) !== connection.idpEntityId) {
    throw new SamlRefusal('issuer_mismatch');
  }
  const assertionId = attributeOf(assertion, 'ID');
  if (!assertionId) throw new SamlRefusal('no_assertion_id');

  const conditions = childrenOf(assertion, NS.assertion, 'Conditions');
  if (conditions.length !== 1) throw new SamlRefusal('no_conditions');
  const notBefore = instant(attributeOf(conditions[0]!, 'NotBefore'));
  const notOnOrAfter = instant(attributeOf(conditions[0]!, 'NotOnOrAfter'));
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) throw new SamlRefusal('not_yet_valid');
  if (notOnOrAfter !== undefined && now - CLOCK_SKEW_MS >= notOnOrAfter) throw new SamlRefusal('expired');
  const audiences = childrenOf(conditions[0]!, NS.assertion, 'AudienceRestriction');
  // Every restriction must admit this service provider (core 2.5.1.4): each is a condition of its own.
  if (
    audiences.length === 0 ||
    !audiences.every((restriction) =>
      childrenOf(restriction, NS.assertion, 'Audience').some((audience) => textOf(audience) === sp.entity_id),
    )
  ) {
    throw new SamlRefusal('audience_mismatch');
  }

  const subject = childOf(assertion, NS.assertion, 'Subject');
  const nameIdElement = subject && childOf(subject, NS.assertion, 'NameID');
  const nameId = textOf(nameIdElement);
  if (!subject || !nameId) throw new SamlRefusal('no_name_id');
  const bearers = childrenOf(subject, NS.assertion, 'SubjectConfirmation').filter(
    (confirmation) => attributeOf(confirmation, 'Method') === BEARER,
  );
  if (bearers.length === 0) throw new SamlRefusal('no_bearer_confirmation');
  const expected = { recipient: sp.acs_url, inResponseTo: envelope.inResponseTo };
  const refusals = bearers.map((confirmation) => confirmationRefusal(confirmation, expected, now));
  const confirmedIndex = refusals.indexOf(undefined);
  if (confirmedIndex < 0) throw new SamlRefusal(refusals[0]!);
  const confirmationData = childOf(bearers[confirmedIndex]!, NS.assertion, 'SubjectConfirmationData')!;

  const authn = childOf(assertion, NS.assertion, 'AuthnStatement');
  if (!authn) throw new SamlRefusal('no_authn_statement');
  const sessionEnds = instant(attributeOf(authn, 'SessionNotOnOrAfter'));
  if (sessionEnds !== undefined && now - CLOCK_SKEW_MS >= sessionEnds) throw new SamlRefusal('expired');

  const attributes = attributesOf(assertion);
  const nameIdIsEmail = attributeOf(nameIdElement!, 'Format') === EMAIL_FORMAT;
  const text = (value: string | undefined) => (value ? value.slice(0, 255) : null);
  const confirmationEnds = instant(attributeOf(confirmationData, 'NotOnOrAfter'))!;
  return {
    assertionId,
    inResponseTo: attributeOf(confirmationData, 'InResponseTo')!,
    nameId,
    sessionIndex: attributeOf(authn, 'SessionIndex') ?? null,
    email: first(attributes, ATTRIBUTES.email) ?? (nameIdIsEmail ? nameId : undefined),
    name: text(first(attributes, ATTRIBUTES.name)),
    givenName: text(first(attributes, ATTRIBUTES.givenName)),
    familyName: text(first(attributes, ATTRIBUTES.familyName)),
    acceptableUntil: new Date(Math.max(confirmationEnds, notOnOrAfter ?? 0) + CLOCK_SKEW_MS),
  };
}
