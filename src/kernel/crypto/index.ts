export { open, purposeKey, seal } from './aead.js';
export { createKeyring, type Keyring, type PublicJwk } from './keyring.js';
export { hashPassword, verifyNothing, verifyPassword } from './passwords.js';
export { hmacSha256Hex, prefixedSecret, randomSecret, secretsEqual, sha256Base64Url, sha256Hex } from './secrets.js';
