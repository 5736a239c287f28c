import { Type } from '@sinclair/typebox';
import { UseCookie } from '../sign-in/index.js';
import { PASSKEY_NAME_MAX } from './relying-party.js';

/** Binary WebAuthn values travel as base64url text (WebAuthn Level 3 `toJSON()`), bounded in length. */
const B64u = (maxLength: number, description?: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]+$', minLength: 1, maxLength, ...(description ? { description } : {}) });

/** A credential id is at most 1023 bytes (WebAuthn section 5.8.3 limits it): 1364 base64url characters. */
const CredentialId = B64u(1364, 'Credential id, base64url');
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 });
const Attachment = Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')]));
const ExtensionResults = Type.Optional(
  Type.Object({}, { additionalProperties: true, description: 'clientExtensionResults, as the browser gives them' }),
);

/** What the browser's `PublicKeyCredential.toJSON()` gives after `navigator.credentials.create()`, plus a name. */
export const RegistrationBody = Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64u(8192),
    attestationObject: B64u(65536),
    transports: Type.Optional(Transports),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ExtensionResults,
  name: Type.Optional(
    Type.String({
      maxLength: 400,
      description: `Shown in the list: 1 to ${PASSKEY_NAME_MAX} characters, no control characters; default "Passkey"`,
    }),
  ),
});

/**
 * An assertion's values are only bounded here, not checked for base64url: a malformed one is a bad assertion,
 * refused like every other (a passkey sign-in's generic 401, Part A 4.3; a payment step-up's burned attempt), never
 * a 422 that would tell it apart.
 */
export const AssertionValue = (maxLength: number) => Type.String({ minLength: 1, maxLength });

/**
 * What the browser's `PublicKeyCredential.toJSON()` gives after `navigator.credentials.get()`, for a passkey
 * sign-in and a payment step-up alike, but for `clientExtensionResults`, which each route documents its own way.
 */
export const AssertionFields = {
  id: AssertionValue(1364),
  rawId: AssertionValue(1364),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: AssertionValue(8192),
    authenticatorData: AssertionValue(8192),
    signature: AssertionValue(2048),
    userHandle: Type.Optional(Type.Union([AssertionValue(128), Type.Null()])),
  }),
  authenticatorAttachment: Attachment,
};

/** A passkey sign-in: the assertion, plus the organization. */
export const SignInBody = Type.Object({
  ...AssertionFields,
  clientExtensionResults: ExtensionResults,
  tenant_slug: Type.String({ minLength: 1, maxLength: 255, description: 'The organization to sign in to' }),
  use_cookie: UseCookie,
});

export const RemoveBody = Type.Object({
  password: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'Required when the account has a password' }),
  ),
});

export const PasskeySummarySchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Last sign-in' }),
  device_type: Type.String({ description: '`singleDevice`, or `multiDevice` for a passkey that can be synced' }),
  backed_up: Type.Boolean({ description: 'The passkey is backed up (synced) by its provider' }),
  transports: Type.Array(Type.String()),
});

const CredentialDescriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(Type.String())),
});

/** `PublicKeyCredentialCreationOptionsJSON`: give to `PublicKeyCredential.parseCreationOptionsFromJSON`. */
export const CreationOptionsSchema = Type.Object({
  challenge: Type.String(),
  rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  authenticatorSelection: Type.Optional(
    Type.Object({
      authenticatorAttachment: Type.Optional(Type.String()),
      residentKey: Type.Optional(Type.String()),
      requireResidentKey: Type.Optional(Type.Boolean()),
      userVerification: Type.Optional(Type.String()),
    }),
  ),
  hints: Type.Optional(Type.Array(Type.String())),
  attestation: Type.Optional(Type.String()),
  extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
});

/** `PublicKeyCredentialRequestOptionsJSON`: give to `PublicKeyCredential.parseRequestOptionsFromJSON`. */
export const RequestOptionsSchema = Type.Object({
  challenge: Type.String(),
  timeout: Type.Optional(Type.Integer()),
  rpId: Type.Optional(Type.String()),
  allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  userVerification: Type.Optional(Type.String()),
  hints: Type.Optional(Type.Array(Type.String())),
});
