import { open, purposeKey, seal } from '../../kernel/crypto/index.js';

/**
 * The key that seals upstream client secrets at rest: derived from the service secret key (as the webhooks module
 * derives its own), for this use only, so a ciphertext of one module never opens under another's key.
 */
export const sealingKeyOf = (secretKey: Buffer) => purposeKey(secretKey, 'svc sso oidc client secrets v1');

/** Bound to the organization: a sealed secret copied to another organization's row does not open. */
const contextOf = (tenantId: string) => `sso-oidc:${tenantId}:client_secret`;

export const sealClientSecret = (key: Buffer, tenantId: string, secret: string) =>
  seal(key, secret, contextOf(tenantId));
export const openClientSecret = (key: Buffer, tenantId: string, sealed: string) =>
  open(key, sealed, contextOf(tenantId));
