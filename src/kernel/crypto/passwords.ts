import { hash, verify } from '@node-rs/argon2';

/** OWASP argon2id parameters: m=19456 KiB, t=2, p=1 (Algorithm.Argon2id is 2). */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2ID);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification, for an unknown account or one without a password, so the
 * answer's timing does not reveal whether the account exists. Always false.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that no account has');
  await verifyPassword(await dummyHash, password);
  return false;
}
