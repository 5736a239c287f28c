import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software FIDO2 authenticator for API tests: ES256 keys from node:crypto, attestation `none`, and assertions
 * with a chosen signature counter and flags, so replay, clone and user-verification cases are exact. It builds
 * what a browser's `PublicKeyCredential.toJSON()` sends (W3C WebAuthn Level 3, sections 5.2 and 6.1).
 */

export type Cbor = number | string | Uint8Array | Map<number | string, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** The small subset of CBOR (RFC 8949) an attestation object and a COSE key need. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Authenticator data flags (WebAuthn section 6.1). */
export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

interface StoredCredential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
  origin?: string;
  rpId?: string;
  type?: string;
  userVerified?: boolean;
  userPresent?: boolean;
}

export interface AssertionOverrides extends CeremonyOverrides {
  /** Which credential answers (default: the last created). */
  credentialId?: string;
  /** The signature counter to report (default: one more than the last). */
  counter?: number;
  /** The user handle to report (default: the one the credential was created for; null for none). */
  userHandle?: string | null;
  /** Corrupt the signature. */
  badSignature?: boolean;
}

export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, StoredCredential>();
  private last: string | undefined;
  readonly aaguid = Buffer.alloc(16);

  /** `origin` is where the "browser" runs (BASE_URL's origin for a genuine ceremony). */
  constructor(private readonly origin: string) {}

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides) {
    return Buffer.from(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private flagsOf(overrides: CeremonyOverrides): number {
    return (overrides.userPresent === false ? 0 : FLAGS.UP) | (overrides.userVerified === false ? 0 : FLAGS.UV);
  }

  /** `navigator.credentials.create()` for creation options as the service sends them. */
  createCredential(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    overrides: CeremonyOverrides & { counter?: number; credentialId?: string; publicKey?: Buffer } = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    // A chosen COSE public key instead (this credential then cannot sign assertions): attestation `none` carries no
    // signature, so a key of any algorithm reaches the service's algorithm check.
    const cose =
      overrides.publicKey ??
      cbor(
        new Map<number, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x!, 'base64url')],
          [-3, Buffer.from(jwk.y!, 'base64url')],
        ]),
      );
    const id = overrides.credentialId ? Buffer.from(overrides.credentialId, 'base64url') : randomBytes(32);
    const counter = overrides.counter ?? 0;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const rpId = overrides.rpId ?? options.rp.id!;
    const authData = this.authData(
      rpId,
      this.flagsOf(overrides) | FLAGS.AT,
      counter,
      Buffer.concat([this.aaguid, idLength, id, cose]),
    );
    const stored = { id, privateKey, cose, userHandle: options.user.id, counter };
    this.credentials.set(b64u(id), stored);
    this.last = b64u(id);
    return {
      id: b64u(id),
      rawId: b64u(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', options.challenge, overrides)),
        attestationObject: b64u(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** `navigator.credentials.get()` for request options as the service sends them. */
  getAssertion(options: { challenge: string; rpId?: string }, overrides: AssertionOverrides = {}) {
    const credentialId = overrides.credentialId ?? this.last;
    const stored = credentialId ? this.credentials.get(credentialId) : undefined;
    if (!stored) throw new Error('no such credential in this authenticator');
    stored.counter = overrides.counter ?? stored.counter + 1;
    const authData = this.authData(overrides.rpId ?? options.rpId!, this.flagsOf(overrides), stored.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, overrides);
    let signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), stored.privateKey);
    if (overrides.badSignature) signature = sign('sha256', Buffer.from('something else'), stored.privateKey);
    const userHandle = overrides.userHandle === undefined ? stored.userHandle : overrides.userHandle;
    return {
      id: b64u(stored.id),
      rawId: b64u(stored.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** The counter this authenticator would report next time minus one (what it last reported). */
  counterOf(credentialId: string): number {
    return this.credentials.get(credentialId)?.counter ?? 0;
  }
}
