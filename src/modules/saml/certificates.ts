import { X509Certificate } from 'node:crypto';
import { unprocessable } from '../../kernel/http/index.js';

/** Key rotation needs two at once (the current and the next); a few more leave room, more is a mistake. */
export const MAX_CERTIFICATES = 5;

export interface CertificateDetails {
  fingerprint_sha256: string;
  subject: string;
  not_before: string;
  not_after: string;
}

const PEM = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/;

/** PEM armour around base64 DER, 64 characters a line (RFC 7468 section 2). */
export const pemOf = (base64Der: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64Der.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----`;

/**
 * An identity provider's signing certificate as admins paste it (PEM, or the bare base64 of metadata's
 * `X509Certificate`), reduced to its base64 DER. 422 naming the field when it is no X.509 certificate.
 */
export function certificateBody(raw: string, field: string): string {
  const armoured = PEM.exec(raw);
  const body = (armoured ? armoured[1]! : raw).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw unprocessable(`${field}: is not a PEM or base64 X.509 certificate`);
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw unprocessable(`${field}: is not a PEM or base64 X.509 certificate`);
  }
  return body;
}

/** The certificates of a connection: each valid, duplicates dropped, 1 to 5. */
export function validCertificates(raw: readonly string[], field = 'idp_certificates'): string[] {
  const bodies = [...new Set(raw.map((value, index) => certificateBody(value, `${field}[${index}]`)))];
  if (bodies.length === 0) throw unprocessable(`${field}: at least one signing certificate is required`);
  if (bodies.length > MAX_CERTIFICATES) throw unprocessable(`${field}: at most ${MAX_CERTIFICATES} certificates`);
  return bodies;
}

/**
 * What an admin needs to tell certificates apart and see one expire. Expiry is shown, not enforced: SAML signatures
 * are checked against the configured key, and identity providers commonly sign with long-lived self-signed
 * certificates; replacing one is the admin's decision.
 */
export function detailsOf(base64Der: string): CertificateDetails {
  const certificate = new X509Certificate(Buffer.from(base64Der, 'base64'));
  return {
    fingerprint_sha256: certificate.fingerprint256,
    subject: certificate.subject.replace(/\n/g, ', '),
    not_before: new Date(certificate.validFrom).toISOString(),
    not_after: new Date(certificate.validTo).toISOString(),
  };
}
