import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from '../../kernel/crypto/index.js';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30-second steps. */
const TOTP_PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the previous and next step are accepted too, for clock drift between phone and server. */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 8;

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://` URI an authenticator app scans (issuer and account shown in the app). */
export function provisioningUri(secret: string, issuer: string, account: string): string {
  return new TOTP({ ...TOTP_PARAMS, issuer, label: account, secret: Secret.fromBase32(secret) }).toString();
}

/** The 30-second step a TOTP code belongs to, or undefined when it matches none within the drift window. */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  const totp = new TOTP({ ...TOTP_PARAMS, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: DRIFT_STEPS });
  return delta === null ? undefined : totp.counter({ timestamp: now.getTime() }) + delta;
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown: three groups of four characters (about 59 bits), e.g. `k7pq-x2mf-9rta`. */
function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)].map((group) => group.join('')).join('-');
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** Stored form of a recovery code: typed case and separators do not matter. */
export const recoveryCodeHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[^a-z0-9]/g, ''));
