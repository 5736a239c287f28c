import { createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider for tests, speaking the real protocol: it takes AuthnRequests over the HTTP-Redirect
 * binding at `https://secure.example.test/saml/sso` (TLS with the test certificate, reached by `SamlBrowser` on its
 * loopback port), answers with an auto-submitting HTML form that posts a signed `SAMLResponse` to the service
 * provider's ACS (HTTP-POST binding), sends signed LogoutRequests (HTTP-Redirect) and receives LogoutResponses.
 * Assertions are signed with `xml-crypto` (RSA-SHA256, exclusive c14n) by a test key; a second, "rogue" key signs
 * what a forger would. The browser's IdP session says who signs in: `SamlBrowser.signIn(url, login)`.
 */
const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);
export const SAML_IDP_HOST = 'secure.example.test';
const CA = readFileSync(new URL('ca.pem', testdata));
const TLS = {
  key: readFileSync(new URL('server-key.pem', testdata)),
  cert: readFileSync(new URL('server-cert.pem', testdata)),
};

/** Test-only signing keys (self-signed, generated for these tests; they protect nothing). */
const KEYS = {
  idp: {
    key: `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDLqusbtmtZyUpM
nY2lPJlT2ANzoIn2WhXodnQiHTSIm65MsizduwAvE331TOSm/zayx2qt0fpS62eH
ThWTXyvFaW5vQ52vav2+ykznMaWITs57PDotxGhkQgIrh5es+98owLtuScBhz+th
McecXUSt+jw8XuZ2JvvMzb2uIk3TfWSZh7wQ7D/pi96+wLOrD4sQBxihw6GdHhOJ
vzIwwogQ3DtiiyirAgAJ7cJeXDUFQlf+j7S6h7N4dOReEWgHoOo3KXTCLk287NK9
IEdZ3qqW8UHvB4kJ01FSpMczn9VEU9ZyP++3IgRa0REKLdnnaST42pnov8R0mvTC
+zqc/rAVAgMBAAECggEAFbY2UyF6xzsUrx86qutPYydLkueB3Z/T5xC9p6daYtfJ
2IZEDy0ww1P+IQjd9UmOwLdOkZIpb+6FfmCeHzRNm8F2Eulv5XPv8gdp9FmQDnxs
Oan9f8SI5ms9BPvy+O9u5k7JjGPTXPoH2zgt0ecFe9CJ3Fu3kM/uFvK17lrc1hc+
gpC8E0iLmQs/t1YMMFiK8+s3601AycRzFIWNfbjSUgM8PwBrZQGVVrqkPBKkd7TR
Ek1nK9XcTXUYSIXIbf/3TgJN45cE/0RSF3SGfX5Czr/GzUKT1yQZroxP8PCILq/p
6hLAtpY2vXld2+6vJy6/NkVMuVJP8t61pliS284tnwKBgQD/4q46RTGa8hAU9VfL
6gHKxDTIWBMeMxO+RJJzrCg6QkxnO7BQ27X33GeqiYeHqBGyRUuShkOQ8hGmqmhQ
HE/1dWtt/8JmdzQHiIV4f8jH5kuIFtJ0Y4058Cp0qGuV2JAS2XfBmbGGZY2oRwZm
ktPZ+9K4r/b76GcyAm+vTP3PFwKBgQDLwkEy8P1bDm1XeocrtfYDs2JXYJpSwLVi
TCsmWgNfo6uTXCBbW4uhRn8BEZsvLJeZ+b0lJSZub4uJ26vX5SVXQG2n3D08i9yL
Fwxv6VsleEnq1W1N5Q/sKO5/IMKBlqtIjZmY+B9DSYSVU5PMTWL8uGGigSH/OrRR
nhyVnQYVswKBgQDX8mmu624toVNJHLR3dokEogkZeprHxbtHu38M96ELaaApDwqB
cqpi/zLNjTs/lOs6U5ivk3e5/1A+I1ndIcepEusS7eEVsEvMf76ELvM3IHdl5jy9
1LX+y1xJD0mcMCOGhNi4HgjfrxyZgzc3oXoAYLE5A+egOEW+wqeWfZdFCQKBgDO0
KUM577BJaumFyAMJe1HZFR1DACX7jItS9KgYsz5zk7gi6nsEMdxMvTGSPCSuVhHW
U263jJb9axUiTurL1LvdN3Ye5tMUUnRg9uD3AA/0BB245rGbbHzqrgpIT9L+Xpxc
ghtU6unyH9iciqaPBI1IZE4OIohXZyZGzs4QOFkNAoGBAOFcgZJ0UUB/QkWUkxn4
Mj706jDYVqkXLlxc4XNt1VaE0B9Rq5+qBIxTnhT/+LZc9lrOqFlWvRxFbNWkFNAm
yhLFUI4lhi/MSw9d5aRlEcDca3drtdgJlMgkzZfKH41SaCjG6ymkujNVWeYoj9TC
4rde+nxjSytv+1QWq8eoL897
-----END PRIVATE KEY-----`,
    cert: `-----BEGIN CERTIFICATE-----
MIIDIzCCAgugAwIBAgIUOAHn3HJGbO/I1gJNAm03R7N4WJ4wDQYJKoZIhvcNAQEL
BQAwIDEeMBwGA1UEAwwVdGVzdCBzYW1sIGlkcCBzaWduaW5nMCAXDTI2MTEyNTA4
MTEzNFoYDzIxMjYxMTAxMDgxMTM0WjAgMR4wHAYDVQQDDBV0ZXN0IHNhbWwgaWRw
IHNpZ25pbmcwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQDLqusbtmtZ
yUpMnY2lPJlT2ANzoIn2WhXodnQiHTSIm65MsizduwAvE331TOSm/zayx2qt0fpS
62eHThWTXyvFaW5vQ52vav2+ykznMaWITs57PDotxGhkQgIrh5es+98owLtuScBh
z+thMcecXUSt+jw8XuZ2JvvMzb2uIk3TfWSZh7wQ7D/pi96+wLOrD4sQBxihw6Gd
HhOJvzIwwogQ3DtiiyirAgAJ7cJeXDUFQlf+j7S6h7N4dOReEWgHoOo3KXTCLk28
7NK9IEdZ3qqW8UHvB4kJ01FSpMczn9VEU9ZyP++3IgRa0REKLdnnaST42pnov8R0
mvTC+zqc/rAVAgMBAAGjUzBRMB0GA1UdDgQWBBTZWkkTVWEiiXIuHFmk/w6JLaqm
ljAfBgNVHSMEGDAWgBTZWkkTVWEiiXIuHFmk/w6JLaqmljAPBgNVHRMBAf8EBTAD
AQH/MA0GCSqGSIb3DQEBCwUAA4IBAQArBC0pA6JvvUpWVStnSu8DjEyN5sgl9yko
GPvl6OlvYGjbdTOR+TtO6/w4mtgh3amhBqhE6nge6ksELpeYPEoIL/pYv8r+SHIY
YSSKpYcsiaJTkzUT9N3x3J9QeAGy5xkQjArNaM+3wbjeiYYxbIVjmNTdESPe8O2V
wKN1OWUHCL2K+hgxvmUVndTxz5Y8154ju9OyYJIqYWKkaXJpknIUN0TKkKMmUiCu
9mZyQ7/VIRiD2YHWf9/eKTVVaOwU/JIYvkQdZ3lm74R/Xb4vq+kwHkSiEduiFNX7
hz+xB5pDT5cIyxV6tMiGFe5N9F+Qag5JpQPWOHDiF/kmVpjXiMh4
-----END CERTIFICATE-----`,
  },
  rogue: {
    key: `-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7fULg6hd/on4y
vhZ5VxGRoH8GbG4P/D/6D8/LA1QldH3Tv0npN9xsCRU0jkgmEr/6HcV/kO8aOmvc
yjZgi0jZNnrlMldmBb6EGNO9JmVA70fg/wOlVObBWZk8Nn4HBrwKeXBkX/jiSqcP
iobWSB2p9EtHZJ5N3h5oSTBdHX/bPIc09RFxoqQbF6Yf3j35r1a1mr33zQ5VMBQ+
3PVND2NBfrpI+TlpCPHyOHp1PH1QOfw8qTj2RbQB1hPV1Oh/FOu0abRmPbM6A/q6
jAYVybP9j2DHMwNNSw+CkyTR6UYbNSJO+ozkoOJNB6S0ZT2PLuw8uuN06o8Oqk6r
Nfchk/fjAgMBAAECggEAM2UB6T+iU2WKrIQ5CugYM9BIIc2lWhJuwzCEaIUwEthd
Cad9LkYW0TKoMnDyTCWFpJ12nyJuuMTc/ngb8dkcjhaGF7/1/0yBzho0KLyWsvck
wAOHz1F3s/bIr53MbEanU0O40HsScY2/P95cWe8I2qbR3+8wCe5ibXnqnQvSGZmE
iuJgPCFMwBBTTMFE98xfCtf82po4v76gE4e6El4Y6AZEwZrTtSSt5KU/+9tuBGx7
uCTS2Hf5JioLGkWo1G2KYJADcYfqlVscQhZ7IHiEZN6ifuoto/6U4VI68/pRv7ov
arOUMs2h7NS6KHbZ8QDLDfQxGD1gfS6EKQSS4OYKoQKBgQDsn0ylbUaY/Viog5GF
j2yrMelbVvIPXHZlzfk1fAERXvnjBQCv6AhMu3He/z023fVTKUIDHoa2QYtelOqc
I4HThofsjj5qYiGgzKQH6LfXUXQFbT1qdE8pFWn6lbRfWuvc2nx7p0povXMS3ywj
uu/Feo8Dw86fwU9hThyoOWBnswKBgQDK1+gwTXfjtb+9oJEJ2jtGyvh7g7o+oGJ5
cXoI45BunGghYZaQfJ9Ntvr7Jc6SGfCkDQaU6gRdheDtTu0h7zZ8p22kxFPBqiHM
J2iNfQCxWNRxqLHjQh3m+COISCFE1Bg07T8VhfyBMTVAhSNoHsq24sk04tIGNUXR
dGa6xbQXEQKBgC2mvj7cSlaR6lz4pUbDWQ/eXUtGBwV3rVAO4Rm0hvA3BrcJ7AwE
FDXZpCqFy+WeBQq6VwYLCap4Es94o5rkLtQEjIzTFK+ppxtC4BK2j2F3UY8KeGLl
dbBTdVLnNxl+jSra7FFfATgb9OubKwTpuAC9mIH9cQvZW9tGGrlJ+JOJAoGARO5Q
IjIBPumhihBJmX6GzEznWhnurZ+VN03fuauThnMyU721C8692AwJiFVVuIKGK0md
5fcMmreHMz2yCekfrAa9lNN+3v4w1A7EUeib1qioMSOxp9ftD3Ndp89TNu+Ydkv1
Nxw8La8KOK3F1Xk5TCMPWyCFXMS3wDD9RBUxWPECgYB6AIzIVseVNvd4aGize/Yb
iGcRqXJyTiINxTaO3YWDoizv9y+xRbLAbY9MabLr75TOfYd9viZWeDbEbI9RruVN
98Nl6tTkWt3P0F6IaYrckQc7UmM5oQhDoeLJGrEJ22vpuwNFAK+himZNfNkjPj2S
HfeQWH8nBqVAsqbRQsu3+w==
-----END PRIVATE KEY-----`,
    cert: `-----BEGIN CERTIFICATE-----
MIIDJzCCAg+gAwIBAgIUH4RYwdDlSTARwcjt41R5pxnUcf0wDQYJKoZIhvcNAQEL
BQAwIjEgMB4GA1UEAwwXdGVzdCBzYW1sIHJvZ3VlIHNpZ25pbmcwIBcNMjYxMTI1
MDgxMTM0WhgPMjEyNjExMDEwODExMzRaMCIxIDAeBgNVBAMMF3Rlc3Qgc2FtbCBy
b2d1ZSBzaWduaW5nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu31C
4OoXf6J+Mr4WeVcRkaB/BmxuD/w/+g/PywNUJXR9079J6TfcbAkVNI5IJhK/+h3F
f5DvGjpr3Mo2YItI2TZ65TJXZgW+hBjTvSZlQO9H4P8DpVTmwVmZPDZ+Bwa8Cnlw
ZF/44kqnD4qG1kgdqfRLR2SeTd4eaEkwXR1/2zyHNPURcaKkGxemH949+a9WtZq9
980OVTAUPtz1TQ9jQX66SPk5aQjx8jh6dTx9UDn8PKk49kW0AdYT1dTofxTrtGm0
Zj2zOgP6uowGFcmz/Y9gxzMDTUsPgpMk0elGGzUiTvqM5KDiTQektGU9jy7sPLrj
dOqPDqpOqzX3IZP34wIDAQABo1MwUTAdBgNVHQ4EFgQUyht9xnXq7U5QypgtKMVk
OeYgWYwwHwYDVR0jBBgwFoAUyht9xnXq7U5QypgtKMVkOeYgWYwwDwYDVR0TAQH/
BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAloUenlf/1UUGFlunN69HJvx1yrt6
sU77VUSpE0TMOp3GPPW/j4pD3lrCZjsyLwxSCJT9dDk0le3ItnoNkA4lS5nzhPO0
1ZS9O3iaBFVO/MMhNEBcX0Wu+FLwFJq9/m5VuL3cHwGwStSrNAAAF7iKzPopDF4b
8HHfr0IBoqqoH8VfykEcyVNdxRh/qQ3fWpEhsyFyirfMlEDgp1VJvOG8cSi899uQ
RQaUJN1DVPdXgHuWOwUMrDojGFskMSATO3xkQxZa6mLJxU+JVBbZMCNAvj+AqqI9
Q3PIMxAWuXsULECQoHDReJ9mI/lt9DsDukyDV0zD2ONtjbga2vSkDp5vKg==
-----END CERTIFICATE-----`,
  },
} as const;

export const SAML_IDP_CERTIFICATE = KEYS.idp.cert;
export const SAML_ROGUE_CERTIFICATE = KEYS.rogue.cert;

const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
};
const SHA256 = {
  signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
};
const SHA1 = {
  signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  digest: 'http://www.w3.org/2000/09/xmldsig#sha1',
};
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const PERSISTENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** What the identity provider asserts about one of its people. */
export interface SamlPerson {
  nameId: string;
  nameIdFormat?: string;
  /** SAML attributes by name (`email`, `givenName`, the claim URIs Entra ID uses…). */
  attributes?: Record<string, string>;
}

/** Ways a test bends the next response: what a misconfigured or hostile identity provider would send. */
export interface ResponseTweaks {
  signAssertion?: boolean;
  signResponse?: boolean;
  key?: 'idp' | 'rogue';
  weakAlgorithm?: boolean;
  issuer?: string;
  audience?: string;
  recipient?: string;
  destination?: string | null;
  inResponseTo?: string | null;
  assertionId?: string;
  /** Both the Conditions' and the SubjectConfirmationData's NotOnOrAfter. */
  notOnOrAfter?: Date;
  notBefore?: Date;
  /** Changes the signed XML afterwards (tampering). */
  tamper?: (xml: string) => string;
  /** Refuses the sign-in with this second-level status code (no assertion), as a provider does for a person not assigned. */
  failStatus?: string;
}

interface AuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  destination: string;
  xml: string;
  relayState: string | undefined;
}

interface Element {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(namespace: string, localName: string): { length: number; item(index: number): Element | null };
}
type Parser = new () => { parseFromString(source: string, type: string): { documentElement: Element } };
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: Parser };
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement;
const firstText = (root: Element, namespace: string, name: string) =>
  root.getElementsByTagNameNS(namespace, name).item(0)?.textContent ?? undefined;

const xmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const samlId = () => `_${randomBytes(16).toString('hex')}`;

/** Signs the element `localName` (its Issuer precedes the signature, SAML 2.0 core 5.4.1). */
function sign(xml: string, localName: 'Assertion' | 'Response', key: 'idp' | 'rogue', weak: boolean): string {
  const algorithms = weak ? SHA1 : SHA256;
  const signer = new SignedXml({
    privateKey: KEYS[key].key,
    publicCert: KEYS[key].cert,
    signatureAlgorithm: algorithms.signature,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const element = localName === 'Response' ? `/*[local-name(.)='Response']` : `//*[local-name(.)='Assertion']`;
  signer.addReference({ xpath: element, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: algorithms.digest });
  signer.computeSignature(xml, {
    location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** SAML 2.0 bindings 3.4.4.1: the redirect binding signs `SAMLRequest=…&RelayState=…&SigAlg=…` as sent. */
function redirectQuery(
  name: 'SAMLRequest' | 'SAMLResponse',
  xml: string,
  options: { relayState?: string; key?: 'idp' | 'rogue'; signed?: boolean; sigAlg?: string },
): string {
  const parts = [`${name}=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`];
  if (options.relayState) parts.push(`RelayState=${encodeURIComponent(options.relayState)}`);
  if (options.signed === false) return parts.join('&');
  const sigAlg = options.sigAlg ?? SHA256.signature;
  parts.push(`SigAlg=${encodeURIComponent(sigAlg)}`);
  const signer = createSign(sigAlg.endsWith('sha1') ? 'RSA-SHA1' : 'RSA-SHA256');
  signer.update(parts.join('&'));
  parts.push(`Signature=${encodeURIComponent(signer.sign(KEYS[options.key ?? 'idp'].key, 'base64'))}`);
  return parts.join('&');
}

export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  sloUrl: string;
  port: number;
  people: Map<string, SamlPerson>;
  /** AuthnRequests received, newest last. */
  requests: AuthnRequest[];
  /** LogoutResponses received (decoded XML), newest last. */
  logoutResponses: string[];
  /** Bends the next response only. */
  next: ResponseTweaks | undefined;
  /** The IdP's metadata document (SAML 2.0 metadata). */
  metadata(options?: { withSlo?: boolean }): string;
  /** A signed response to `request` for `login` (what the SSO endpoint posts). */
  responseFor(request: AuthnRequest, login: string, tweaks?: ResponseTweaks): string;
  /** The URL of the SP's single logout endpoint carrying a LogoutRequest (HTTP-Redirect binding). */
  logoutRequestUrl(
    spSloUrl: string,
    options: {
      nameId: string;
      sessionIndex?: string;
      relayState?: string;
      key?: 'idp' | 'rogue';
      signed?: boolean;
      sigAlg?: string;
      issuer?: string;
      issueInstant?: Date;
      id?: string;
    },
  ): string;
  /** The SessionIndex the IdP gave `login` at its last sign-in. */
  sessionIndexOf(login: string): string | undefined;
  close(): Promise<void>;
}

export async function startSamlIdp(options: { clock: () => Date }): Promise<SamlIdp> {
  const base = `https://${SAML_IDP_HOST}/saml`;
  const sessionIndexes = new Map<string, string>();

  const idp: SamlIdp = {
    entityId: `${base}/metadata`,
    ssoUrl: `${base}/sso`,
    sloUrl: `${base}/slo`,
    port: 0,
    people: new Map(),
    requests: [],
    logoutResponses: [],
    next: undefined,

    metadata({ withSlo = true } = {}) {
      const certificate = KEYS.idp.cert.replace(/-----[^-]+-----|\s/g, '');
      return [
        '<?xml version="1.0"?>',
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${idp.entityId}">`,
        '  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
        '    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data>',
        `      <ds:X509Certificate>${certificate}</ds:X509Certificate>`,
        '    </ds:X509Data></ds:KeyInfo></md:KeyDescriptor>',
        withSlo
          ? `    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.sloUrl}"/>`
          : '',
        `    <md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>`,
        `    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${base}/sso-post"/>`,
        `    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"/>`,
        '  </md:IDPSSODescriptor>',
        '</md:EntityDescriptor>',
      ].join('\n');
    },

    responseFor(request, login, tweaks = {}) {
      const person = idp.people.get(login);
      if (!person) throw new Error(`unknown person ${login}`);
      const now = options.clock();
      const iso = (date: Date) => date.toISOString();
      const notOnOrAfter = tweaks.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
      const notBefore = tweaks.notBefore ?? new Date(now.getTime() - 60_000);
      const sessionIndex = samlId();
      sessionIndexes.set(login, sessionIndex);
      const issuer = tweaks.issuer ?? idp.entityId;
      const inResponseTo = tweaks.inResponseTo === undefined ? request.id : tweaks.inResponseTo;
      const inResponseToAttribute = inResponseTo === null ? '' : ` InResponseTo="${xmlEscape(inResponseTo)}"`;
      const destination = tweaks.destination === undefined ? request.acsUrl : tweaks.destination;
      const attributes = Object.entries(person.attributes ?? {})
        .map(
          ([name, value]) =>
            `<saml:Attribute Name="${xmlEscape(name)}"><saml:AttributeValue>${xmlEscape(value)}</saml:AttributeValue></saml:Attribute>`,
        )
        .join('');
      const assertion =
        `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${tweaks.assertionId ?? samlId()}" Version="2.0" IssueInstant="${iso(now)}">` +
        `<saml:Issuer>${xmlEscape(issuer)}</saml:Issuer>` +
        '<saml:Subject>' +
        `<saml:NameID Format="${person.nameIdFormat ?? EMAIL_FORMAT}">${xmlEscape(person.nameId)}</saml:NameID>` +
        '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
        `<saml:SubjectConfirmationData${inResponseToAttribute} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${xmlEscape(tweaks.recipient ?? request.acsUrl)}"/>` +
        '</saml:SubjectConfirmation>' +
        '</saml:Subject>' +
        `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}">` +
        `<saml:AudienceRestriction><saml:Audience>${xmlEscape(tweaks.audience ?? request.issuer)}</saml:Audience></saml:AudienceRestriction>` +
        '</saml:Conditions>' +
        `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${sessionIndex}">` +
        '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
        '</saml:AuthnStatement>' +
        (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
        '</saml:Assertion>';
      const status = tweaks.failStatus
        ? '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
          `<samlp:StatusCode Value="${xmlEscape(tweaks.failStatus)}"/></samlp:StatusCode></samlp:Status>`
        : '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>';
      let xml =
        `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${samlId()}" Version="2.0" IssueInstant="${iso(now)}"` +
        `${destination === null ? '' : ` Destination="${xmlEscape(destination)}"`}${inResponseToAttribute}>` +
        `<saml:Issuer>${xmlEscape(issuer)}</saml:Issuer>` +
        status +
        (tweaks.failStatus ? '' : assertion) +
        '</samlp:Response>';
      const key = tweaks.key ?? 'idp';
      if (tweaks.signAssertion !== false && !tweaks.failStatus)
        xml = sign(xml, 'Assertion', key, tweaks.weakAlgorithm === true);
      if (tweaks.signResponse) xml = sign(xml, 'Response', key, tweaks.weakAlgorithm === true);
      if (tweaks.tamper) xml = tweaks.tamper(xml);
      return Buffer.from(xml, 'utf8').toString('base64');
    },

    logoutRequestUrl(spSloUrl, request) {
      const now = request.issueInstant ?? options.clock();
      const xml =
        `<samlp:LogoutRequest xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${request.id ?? samlId()}" Version="2.0" ` +
        `IssueInstant="${now.toISOString()}" Destination="${xmlEscape(spSloUrl)}">` +
        `<saml:Issuer>${xmlEscape(request.issuer ?? idp.entityId)}</saml:Issuer>` +
        `<saml:NameID Format="${EMAIL_FORMAT}">${xmlEscape(request.nameId)}</saml:NameID>` +
        (request.sessionIndex ? `<samlp:SessionIndex>${xmlEscape(request.sessionIndex)}</samlp:SessionIndex>` : '') +
        '</samlp:LogoutRequest>';
      return `${spSloUrl}?${redirectQuery('SAMLRequest', xml, request)}`;
    },

    sessionIndexOf: (login) => sessionIndexes.get(login),

    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /** The IdP's endpoints: sign-in (the browser's IdP session says who) and the LogoutResponse receiver. */
  function handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', `https://${SAML_IDP_HOST}`);
    if (url.pathname === '/saml/sso') {
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
      const root = parse(xml);
      const authn: AuthnRequest = {
        id: root.getAttribute('ID') ?? '',
        acsUrl: root.getAttribute('AssertionConsumerServiceURL') ?? '',
        destination: root.getAttribute('Destination') ?? '',
        issuer: firstText(root, NS.assertion, 'Issuer') ?? '',
        xml,
        relayState: url.searchParams.get('RelayState') ?? undefined,
      };
      idp.requests.push(authn);
      const login = /idp_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      if (!login || root.localName !== 'AuthnRequest' || authn.destination !== idp.ssoUrl) {
        response.writeHead(400).end('bad request');
        return;
      }
      const tweaks = idp.next;
      idp.next = undefined;
      const samlResponse = idp.responseFor(authn, decodeURIComponent(login), tweaks);
      const relay = authn.relayState
        ? `<input type="hidden" name="RelayState" value="${xmlEscape(authn.relayState)}"/>`
        : '';
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!DOCTYPE html><html><body onload="document.forms[0].submit()">' +
            `<form method="post" action="${xmlEscape(authn.acsUrl)}">` +
            `<input type="hidden" name="SAMLResponse" value="${xmlEscape(samlResponse)}"/>${relay}` +
            '<input type="submit" value="Continue"/></form></body></html>',
        );
      return;
    }
    if (url.pathname === '/saml/slo' && url.searchParams.has('SAMLResponse')) {
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLResponse')!, 'base64')).toString('utf8');
      idp.logoutResponses.push(xml);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('signed out');
      return;
    }
    response.writeHead(404).end();
  }

  const server: Server = createServer(TLS, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  idp.port = (server.address() as AddressInfo).port;
  return idp;
}

/** What the IdP's page posts: the ACS and the form fields. */
export interface PostedForm {
  action: string;
  fields: Record<string, string>;
}

const htmlUnescape = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * A person's browser: it keeps the service's cookies (the SAML flow cookie), holds an IdP session, follows the IdP
 * page's form post to the ACS, and opens the service's and the IdP's URLs without following redirects.
 */
export class SamlBrowser {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];

  constructor(
    readonly serviceOrigin: string,
    readonly idp: SamlIdp,
  ) {}

  private remember(response: Response): void {
    this.lastSetCookie = response.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  /** A JSON call of the app's script to the service (the start). */
  async post(path: string, json: unknown): Promise<{ status: number; body: any; text: string }> {
    const response = await fetch(new URL(path, this.serviceOrigin), {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.cookieHeader(), 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    this.remember(response);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  }

  /** Opens an IdP URL (TLS under the IdP's name, on its loopback port) with an IdP session for `login`. */
  idpGet(url: string, login?: string): Promise<{ status: number; body: string }> {
    const target = new URL(url);
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          port: this.idp.port,
          servername: target.hostname,
          ca: CA,
          path: `${target.pathname}${target.search}`,
          headers: { host: target.host, ...(login ? { cookie: `idp_session=${encodeURIComponent(login)}` } : {}) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  /** Goes to the IdP with the AuthnRequest, signed in there as `login`: the form its page would post. */
  async signIn(authorizationUrl: string, login: string): Promise<PostedForm> {
    const page = await this.idpGet(authorizationUrl, login);
    if (page.status !== 200) throw new Error(`IdP answered ${page.status}: ${page.body}`);
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1];
    if (!action) throw new Error('no form on the IdP page');
    const fields: Record<string, string> = {};
    for (const match of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)) {
      fields[match[1]!] = htmlUnescape(match[2]!);
    }
    return { action: htmlUnescape(action), fields };
  }

  /** Submits a form to the service (the ACS), as the IdP page's script does: where it redirects. */
  async submit(form: PostedForm): Promise<{ status: number; location: URL | null; text: string }> {
    const response = await fetch(form.action, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form.fields).toString(),
    });
    this.remember(response);
    const location = response.headers.get('location');
    return { status: response.status, location: location ? new URL(location) : null, text: await response.text() };
  }

  /** Opens a URL of the service (single logout) without following its redirect. */
  async open(url: string): Promise<{ status: number; location: string | null; body: any }> {
    const response = await fetch(url, { redirect: 'manual', headers: this.cookieHeader() });
    this.remember(response);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, location: response.headers.get('location'), body };
  }
}
