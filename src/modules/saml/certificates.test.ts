import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../kernel/http/index.js';
import { certificateBody, detailsOf, pemOf, validCertificates } from './certificates.js';

const testdata = new URL('../../kernel/net/testdata/', import.meta.url);
const CA_PEM = readFileSync(new URL('ca.pem', testdata), 'utf8');
const SERVER_PEM = readFileSync(new URL('server-cert.pem', testdata), 'utf8');
const bodyOf = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

function outcome(work: () => unknown) {
  try {
    return work();
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.detail}`;
    throw error;
  }
}

describe('an identity provider signing certificate', () => {
  it('is taken as PEM or as the bare base64 of metadata, and reduced to base64 DER', () => {
    const body = bodyOf(CA_PEM);
    expect(certificateBody(CA_PEM, 'f')).toBe(body);
    expect(certificateBody(`pasted with a note\n${CA_PEM}\ntrailing`, 'f')).toBe(body);
    expect(certificateBody(body, 'f')).toBe(body);
    expect(certificateBody(body.replace(/(.{64})/g, '$1\n  '), 'f')).toBe(body);
  });

  it('round-trips through its PEM armour of 64-character lines', () => {
    const pem = pemOf(bodyOf(SERVER_PEM));
    expect(
      pem
        .split('\n')
        .slice(1, -2)
        .every((line) => line.length === 64),
    ).toBe(true);
    expect(certificateBody(pem, 'f')).toBe(bodyOf(SERVER_PEM));
  });

  it('refuses what is not an X.509 certificate, naming the field', () => {
    const refused = '422 idp_certificates[0]: is not a PEM or base64 X.509 certificate';
    expect(outcome(() => certificateBody('not base64!', 'idp_certificates[0]'))).toBe(refused);
    expect(outcome(() => certificateBody('', 'idp_certificates[0]'))).toBe(refused);
    expect(outcome(() => certificateBody(Buffer.from('hello').toString('base64'), 'idp_certificates[0]'))).toBe(
      refused,
    );
    expect(outcome(() => certificateBody(bodyOf(CA_PEM).slice(0, 200), 'idp_certificates[0]'))).toBe(refused);
  });
});

describe("a connection's certificates", () => {
  it('drops the same certificate pasted twice, in either form', () => {
    expect(validCertificates([CA_PEM, bodyOf(CA_PEM), SERVER_PEM])).toEqual([bodyOf(CA_PEM), bodyOf(SERVER_PEM)]);
  });

  it('needs at least one', () => {
    expect(outcome(() => validCertificates([]))).toBe(
      '422 idp_certificates: at least one signing certificate is required',
    );
  });

  it('counts after dropping repeats, so six copies of two are two', () => {
    const six = [CA_PEM, SERVER_PEM, CA_PEM, SERVER_PEM, CA_PEM, SERVER_PEM];
    expect(outcome(() => validCertificates(six))).toHaveLength(2);
  });

  it('names the position of the bad one', () => {
    expect(outcome(() => validCertificates([CA_PEM, 'junk'], 'certificates'))).toBe(
      '422 certificates[1]: is not a PEM or base64 X.509 certificate',
    );
  });

  it('describes a certificate by fingerprint, subject and validity', () => {
    const details = detailsOf(bodyOf(CA_PEM));
    expect(details.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(details.subject).not.toContain('\n');
    expect(Date.parse(details.not_after)).toBeGreaterThan(Date.parse(details.not_before));
    expect(details.not_before).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
  });
});
